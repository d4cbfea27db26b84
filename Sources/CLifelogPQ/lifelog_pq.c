/*
 * libpq, loaded at run time (see include/lifelog_pq.h for why). <libpq-fe.h> from libpq-dev is
 * included for its types and constants only; every function is looked up with dlsym, so nothing
 * here links against the library.
 */
#define _GNU_SOURCE
#include "lifelog_pq.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include <postgresql/libpq-fe.h>

static struct {
  void *handle;
  PGconn *(*connectdb)(const char *);
  ConnStatusType (*status)(const PGconn *);
  char *(*error_message)(const PGconn *);
  void (*finish)(PGconn *);
  PGresult *(*exec)(PGconn *, const char *);
  PGresult *(*prepare)(PGconn *, const char *, const char *, int, const Oid *);
  PGresult *(*exec_prepared)(PGconn *, const char *, int, const char *const *, const int *,
                             const int *, int);
  ExecStatusType (*result_status)(const PGresult *);
  char *(*result_error_message)(const PGresult *);
  char *(*result_error_field)(const PGresult *, int);
  int (*ntuples)(const PGresult *);
  int (*nfields)(const PGresult *);
  char *(*getvalue)(const PGresult *, int, int);
  int (*getlength)(const PGresult *, int, int);
  int (*getisnull)(const PGresult *, int, int);
  void (*clear)(PGresult *);
} pq;

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;

#define LOOKUP(field, name)                                                                    \
  do {                                                                                         \
    *(void **)(&pq.field) = dlsym(handle, name);                                               \
    if (pq.field == NULL) {                                                                    \
      snprintf(error, error_size, "libpq.so.5 lacks %s; install a newer libpq5", name);       \
      dlclose(handle);                                                                         \
      pthread_mutex_unlock(&load_lock);                                                        \
      return -1;                                                                               \
    }                                                                                          \
  } while (0)

int lpq_load(char *error, size_t error_size) {
  pthread_mutex_lock(&load_lock);
  if (pq.handle != NULL) {
    pthread_mutex_unlock(&load_lock);
    return 0;
  }
  void *handle = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    snprintf(error, error_size,
             "cannot load libpq (%s); install it with 'apt install libpq5'", dlerror());
    pthread_mutex_unlock(&load_lock);
    return -1;
  }
  LOOKUP(connectdb, "PQconnectdb");
  LOOKUP(status, "PQstatus");
  LOOKUP(error_message, "PQerrorMessage");
  LOOKUP(finish, "PQfinish");
  LOOKUP(exec, "PQexec");
  LOOKUP(prepare, "PQprepare");
  LOOKUP(exec_prepared, "PQexecPrepared");
  LOOKUP(result_status, "PQresultStatus");
  LOOKUP(result_error_message, "PQresultErrorMessage");
  LOOKUP(result_error_field, "PQresultErrorField");
  LOOKUP(ntuples, "PQntuples");
  LOOKUP(nfields, "PQnfields");
  LOOKUP(getvalue, "PQgetvalue");
  LOOKUP(getlength, "PQgetlength");
  LOOKUP(getisnull, "PQgetisnull");
  LOOKUP(clear, "PQclear");
  pq.handle = handle;
  pthread_mutex_unlock(&load_lock);
  return 0;
}

PGconn *lpq_connect(const char *conninfo) { return pq.connectdb(conninfo); }

int lpq_connection_ok(const PGconn *connection) {
  return connection != NULL && pq.status(connection) == CONNECTION_OK;
}

const char *lpq_connection_error(const PGconn *connection) {
  return connection == NULL ? "out of memory" : pq.error_message(connection);
}

void lpq_finish(PGconn *connection) {
  if (connection != NULL) pq.finish(connection);
}

PGresult *lpq_exec_simple(PGconn *connection, const char *sql) { return pq.exec(connection, sql); }

PGresult *lpq_prepare(PGconn *connection, const char *name, const char *sql, int count) {
  return pq.prepare(connection, name, sql, count, NULL);
}

PGresult *lpq_exec_prepared(PGconn *connection, const char *name, int count,
                            const char *const *values, const int *lengths, const int *formats) {
  return pq.exec_prepared(connection, name, count, values, lengths, formats, 1);
}

int lpq_result_ok(const PGresult *result) {
  if (result == NULL) return 0;
  ExecStatusType status = pq.result_status(result);
  return status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
}

const char *lpq_result_error(const PGresult *result) {
  return result == NULL ? "no result (the connection was lost)" : pq.result_error_message(result);
}

const char *lpq_result_sqlstate(const PGresult *result) {
  const char *state = result == NULL ? NULL : pq.result_error_field(result, PG_DIAG_SQLSTATE);
  return state == NULL ? "" : state;
}

int lpq_rows(const PGresult *result) { return pq.ntuples(result); }
int lpq_columns(const PGresult *result) { return pq.nfields(result); }
const char *lpq_value(const PGresult *result, int row, int column) {
  return pq.getvalue(result, row, column);
}
int lpq_length(const PGresult *result, int row, int column) {
  return pq.getlength(result, row, column);
}
int lpq_is_null(const PGresult *result, int row, int column) {
  return pq.getisnull(result, row, column);
}
void lpq_clear(PGresult *result) {
  if (result != NULL) pq.clear(result);
}
