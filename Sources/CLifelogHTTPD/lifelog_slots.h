/*
 * The connections of one server, counted by client address, so slow clients cannot lock the
 * real users out (docs/security.md, "Slow clients"):
 *
 * - at most `per_address` connections from one address, where an IPv6 client is counted by its
 *   /64 (one host usually owns a whole /64, so any number of its addresses are one);
 * - at most `limit` connections in all, of which at most `limit - reserved` may be waiting for
 *   their request head; when that share is full, a new connection closes the one that has waited
 *   longest for its head, so a client that sends its request at once always gets in;
 * - a request head must be complete within `head_deadline_ns` of the connection opening (or of
 *   the previous request's answer): a head that trickles in a byte now and then is cut off there,
 *   however active it looks.
 *
 * A connection is closed by shutting its socket down (shutdown(2)); libmicrohttpd then reads
 * its end and closes it. Every function is thread-safe.
 */
#ifndef LIFELOG_SLOTS_H
#define LIFELOG_SLOTS_H

#include <stdint.h>
#include <sys/socket.h>

typedef struct lh_slots lh_slots;
typedef struct lh_slot lh_slot;

typedef struct lh_slot_limits {
  /* Connections held at once in all (at least 1). */
  unsigned int limit;
  /* Connections one address (an IPv6 /64) may hold; 0: no limit. */
  unsigned int per_address;
  /* Connections only clients past their request head may hold. */
  unsigned int reserved;
  /* Nanoseconds a request head may take; 0: no deadline. */
  uint64_t head_deadline_ns;
} lh_slot_limits;

/* Room for `capacity` connections (libmicrohttpd's own limit, above `limits.limit`, so the
 * connections closed for newcomers may still be closing). NULL when out of memory. */
lh_slots *lh_slots_create(unsigned int capacity, lh_slot_limits limits);
/* Stops the deadline thread and frees the table. No other call may run at the same time. */
void lh_slots_destroy(lh_slots *slots);
/* Whether a connection from `address` may be accepted now; may close the longest-waiting head. */
int lh_slots_admit(lh_slots *slots, const struct sockaddr *address);
/* Records an accepted connection; NULL when the table is full (then it is not counted). */
lh_slot *lh_slots_open(lh_slots *slots, const struct sockaddr *address, int socket);
/* Forgets a connection, before its socket is closed. */
void lh_slots_close(lh_slots *slots, lh_slot *slot);
/* The connection's request head is complete: no deadline until its answer is sent. */
void lh_slots_head_done(lh_slots *slots, lh_slot *slot);
/* The request was admitted without a token, so its body is held to the head's deadline, counted
 * from when its head began: a body no token vouches for cannot trickle in for ever. */
void lh_slots_head_extends(lh_slots *slots, lh_slot *slot);
/* The connection's answer is sent: its next request head starts its deadline now. */
void lh_slots_head_begins(lh_slots *slots, lh_slot *slot);

#endif
