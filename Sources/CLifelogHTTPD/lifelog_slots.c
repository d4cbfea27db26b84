/* The connections of one server, counted by client address (see lifelog_slots.h). */
#define _GNU_SOURCE
#include "lifelog_slots.h"

#include "lifelog_httpd.h"

#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct lh_slot {
  int in_use;
  /* Shut down for a newcomer or past its deadline: closing, no longer counted. */
  int closing;
  int socket;
  /* The address as an IPv6 one (IPv4 mapped), the host part zeroed for IPv6: what is counted. */
  uint8_t key[16];
  /* Whether the request head is complete (no deadline until the answer is sent). */
  int head_done;
  /* When the current head began (monotonic nanoseconds). */
  uint64_t head_since;
};

struct lh_slots {
  pthread_mutex_t lock;
  pthread_cond_t wake;
  pthread_t watchdog;
  int watching;
  int stopping;
  lh_slot_limits limits;
  unsigned int capacity;
  lh_slot *slot;
};

static uint64_t now_ns(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

void lh_client_key(const struct sockaddr *address, uint8_t key[16]) {
  memset(key, 0, 16);
  if (address == NULL) return;
  if (address->sa_family == AF_INET) {
    const struct sockaddr_in *v4 = (const struct sockaddr_in *)address;
    key[10] = key[11] = 0xff;
    memcpy(key + 12, &v4->sin_addr, 4);
  } else if (address->sa_family == AF_INET6) {
    const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)address;
    const uint8_t *bytes = v6->sin6_addr.s6_addr;
    if (IN6_IS_ADDR_V4MAPPED(&v6->sin6_addr)) {
      memcpy(key, bytes, 16);
    } else {
      memcpy(key, bytes, 8);
    }
  }
}

/* Closes a connection's socket for reading and writing (libmicrohttpd then closes it). The socket
 * stays open until lh_slots_close, which runs under the same lock, so it cannot have been reused. */
static void close_slot(lh_slot *slot) {
  slot->closing = 1;
  shutdown(slot->socket, SHUT_RDWR);
}

static void *watch_deadlines(void *context) {
  lh_slots *slots = context;
  uint64_t deadline = slots->limits.head_deadline_ns;
  /* Checked four times per deadline, at least every second and at most every 50 ms. */
  uint64_t step = deadline / 4;
  if (step > 1000000000u) step = 1000000000u;
  if (step < 50000000u) step = 50000000u;
  pthread_mutex_lock(&slots->lock);
  while (!slots->stopping) {
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    uint64_t end = (uint64_t)until.tv_sec * 1000000000u + (uint64_t)until.tv_nsec + step;
    until.tv_sec = (time_t)(end / 1000000000u);
    until.tv_nsec = (long)(end % 1000000000u);
    int waited = 0;
    while (!slots->stopping && waited != ETIMEDOUT) {
      waited = pthread_cond_timedwait(&slots->wake, &slots->lock, &until);
    }
    uint64_t now = now_ns();
    for (unsigned int index = 0; index < slots->capacity; index++) {
      lh_slot *slot = &slots->slot[index];
      if (slot->in_use && !slot->closing && !slot->head_done && now - slot->head_since > deadline) {
        close_slot(slot);
      }
    }
  }
  pthread_mutex_unlock(&slots->lock);
  return NULL;
}

lh_slots *lh_slots_create(unsigned int capacity, lh_slot_limits limits) {
  lh_slots *slots = calloc(1, sizeof *slots);
  if (slots == NULL) return NULL;
  slots->slot = calloc(capacity, sizeof *slots->slot);
  if (slots->slot == NULL) {
    free(slots);
    return NULL;
  }
  if (limits.limit == 0) limits.limit = 1;
  if (limits.reserved >= limits.limit) limits.reserved = limits.limit - 1;
  slots->capacity = capacity;
  slots->limits = limits;
  pthread_mutex_init(&slots->lock, NULL);
  pthread_condattr_t attributes;
  pthread_condattr_init(&attributes);
  pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
  pthread_cond_init(&slots->wake, &attributes);
  pthread_condattr_destroy(&attributes);
  if (limits.head_deadline_ns > 0) {
    slots->watching = pthread_create(&slots->watchdog, NULL, watch_deadlines, slots) == 0;
  }
  return slots;
}

void lh_slots_destroy(lh_slots *slots) {
  if (slots == NULL) return;
  pthread_mutex_lock(&slots->lock);
  slots->stopping = 1;
  pthread_cond_broadcast(&slots->wake);
  pthread_mutex_unlock(&slots->lock);
  if (slots->watching) pthread_join(slots->watchdog, NULL);
  pthread_cond_destroy(&slots->wake);
  pthread_mutex_destroy(&slots->lock);
  free(slots->slot);
  free(slots);
}

int lh_slots_admit(lh_slots *slots, const struct sockaddr *address) {
  uint8_t key[16];
  lh_client_key(address, key);
  pthread_mutex_lock(&slots->lock);
  unsigned int total = 0, same = 0, waiting = 0;
  lh_slot *oldest = NULL;
  for (unsigned int index = 0; index < slots->capacity; index++) {
    lh_slot *slot = &slots->slot[index];
    if (!slot->in_use || slot->closing) continue;
    total++;
    if (memcmp(slot->key, key, 16) == 0) same++;
    if (!slot->head_done) {
      waiting++;
      if (oldest == NULL || slot->head_since < oldest->head_since) oldest = slot;
    }
  }
  int admitted = 1;
  const lh_slot_limits *limits = &slots->limits;
  if (limits->per_address > 0 && same >= limits->per_address) {
    admitted = 0;
  } else if (total >= limits->limit || waiting >= limits->limit - limits->reserved) {
    /* Full: the head that has waited longest makes room; with none, the newcomer is refused. */
    if (oldest != NULL) {
      close_slot(oldest);
    } else {
      admitted = 0;
    }
  }
  pthread_mutex_unlock(&slots->lock);
  return admitted;
}

lh_slot *lh_slots_open(lh_slots *slots, const struct sockaddr *address, int socket) {
  pthread_mutex_lock(&slots->lock);
  lh_slot *found = NULL;
  for (unsigned int index = 0; index < slots->capacity && found == NULL; index++) {
    if (!slots->slot[index].in_use) found = &slots->slot[index];
  }
  if (found != NULL) {
    memset(found, 0, sizeof *found);
    found->in_use = 1;
    found->socket = socket;
    lh_client_key(address, found->key);
    found->head_since = now_ns();
  }
  pthread_mutex_unlock(&slots->lock);
  return found;
}

void lh_slots_close(lh_slots *slots, lh_slot *slot) {
  if (slot == NULL) return;
  pthread_mutex_lock(&slots->lock);
  slot->in_use = 0;
  pthread_mutex_unlock(&slots->lock);
}

void lh_slots_head_done(lh_slots *slots, lh_slot *slot) {
  if (slot == NULL) return;
  pthread_mutex_lock(&slots->lock);
  slot->head_done = 1;
  pthread_mutex_unlock(&slots->lock);
}

void lh_slots_head_extends(lh_slots *slots, lh_slot *slot) {
  if (slot == NULL) return;
  pthread_mutex_lock(&slots->lock);
  slot->head_done = 0;
  pthread_mutex_unlock(&slots->lock);
}

void lh_slots_head_begins(lh_slots *slots, lh_slot *slot) {
  if (slot == NULL) return;
  pthread_mutex_lock(&slots->lock);
  slot->head_done = 0;
  slot->head_since = now_ns();
  pthread_mutex_unlock(&slots->lock);
}
