/*
 * libpq, as the PostgreSQL store of `lifelog serve --store postgres://…` needs it.
 *
 * libpq is loaded with dlopen() the first time a PostgreSQL store is opened, so the lifelog
 * binary does not depend on it: every other command (`lifelog add` above all) starts without
 * loading libpq and what it pulls in (GSSAPI, LDAP, OpenSSL). Results are asked for in binary
 * format; parameters are text unless their format is 1 (binary, for bytea).
 */
#ifndef LIFELOG_PQ_H
#define LIFELOG_PQ_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pg_conn PGconn;
typedef struct pg_result PGresult;

/* Loads libpq.so.5. Returns 0, or -1 with a message in `error`. Safe to call again. */
int lpq_load(char *error, size_t error_size);

/* Opens a connection from a URI or key=value string (NULL only when out of memory). */
PGconn *lpq_connect(const char *conninfo);
/* 1 while the connection is usable. */
int lpq_connection_ok(const PGconn *connection);
/* The connection's last error message. */
const char *lpq_connection_error(const PGconn *connection);
void lpq_finish(PGconn *connection);

/* Runs one or more statements without parameters. */
PGresult *lpq_exec_simple(PGconn *connection, const char *sql);
/* Prepares `sql` under `name`. */
PGresult *lpq_prepare(PGconn *connection, const char *name, const char *sql, int count);
/* Runs the statement prepared under `name`, asking for binary results. */
PGresult *lpq_exec_prepared(PGconn *connection, const char *name, int count,
                            const char *const *values, const int *lengths, const int *formats);

/* 1 when the statement succeeded (with or without rows). */
int lpq_result_ok(const PGresult *result);
/* The error message, or "". */
const char *lpq_result_error(const PGresult *result);
/* The five-character SQLSTATE, or "". */
const char *lpq_result_sqlstate(const PGresult *result);
int lpq_rows(const PGresult *result);
int lpq_columns(const PGresult *result);
const char *lpq_value(const PGresult *result, int row, int column);
int lpq_length(const PGresult *result, int row, int column);
int lpq_is_null(const PGresult *result, int row, int column);
void lpq_clear(PGresult *result);

#ifdef __cplusplus
}
#endif

#endif
