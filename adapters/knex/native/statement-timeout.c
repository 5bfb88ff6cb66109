/*
 * A time limit on every statement of an SQLite connection, as Postgres has `statement_timeout`.
 *
 * better-sqlite3 runs statements synchronously, is built without SQLite's progress callback and
 * offers no way to call sqlite3_interrupt, so a heavy query would hold the process until it
 * ended. Loaded into a connection as an SQLite extension, this keeps a watchdog thread that
 * interrupts the running statement (SQLITE_INTERRUPT) once it has run longer than the limit,
 * set with a function:
 *
 *   select statement_timeout(30000);   -- milliseconds; 0 removes the limit
 *
 * The trace events say when a statement begins (SQLITE_TRACE_STMT; a trigger's statements
 * belong to the statement that fired them) and ends (SQLITE_TRACE_PROFILE). The watchdog only
 * interrupts while holding the lock those events take, so it never stops a statement for the
 * time of the one before it. POSIX threads only.
 */
#include <pthread.h>
#include <sqlite3ext.h>
#include <time.h>
SQLITE_EXTENSION_INIT1

typedef struct {
  sqlite3 *db;
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t changed;
  sqlite3_int64 limit_ms;  /* 0: no limit */
  void *running;           /* the statement at work, or 0 */
  sqlite3_int64 started_ms;
  int closing;
} Watchdog;

static sqlite3_int64 now_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (sqlite3_int64)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

static int on_trace(unsigned type, void *context, void *statement, void *detail) {
  Watchdog *dog = context;
  pthread_mutex_lock(&dog->lock);
  if (type == SQLITE_TRACE_STMT) {
    const char *sql = detail;
    /* A trigger's statements come as "-- TRIGGER name": they run inside the statement that fired them. */
    if (!(sql && sql[0] == '-' && sql[1] == '-') && dog->running == 0) {
      dog->running = statement;
      dog->started_ms = now_ms();
    }
  } else if (type == SQLITE_TRACE_PROFILE && dog->running == statement) {
    dog->running = 0;
  }
  pthread_mutex_unlock(&dog->lock);
  return 0;
}

/* Waits for a statement to outlast the limit, and stops it; sleeps while there is no limit. */
static void *watch(void *context) {
  Watchdog *dog = context;
  pthread_mutex_lock(&dog->lock);
  while (!dog->closing) {
    if (dog->limit_ms > 0 && dog->running != 0 && now_ms() - dog->started_ms > dog->limit_ms) {
      sqlite3_interrupt(dog->db);
      dog->running = 0;
    }
    /* The next look: a quarter of the limit (10 to 250 ms) while one is set, else when it is. */
    struct timespec wake;
    clock_gettime(CLOCK_REALTIME, &wake);
    sqlite3_int64 step_ms = dog->limit_ms / 4 < 10 ? 10 : dog->limit_ms / 4 > 250 ? 250 : dog->limit_ms / 4;
    if (dog->limit_ms == 0) {
      pthread_cond_wait(&dog->changed, &dog->lock);
      continue;
    }
    wake.tv_nsec += (long)(step_ms % 1000) * 1000000L;
    wake.tv_sec += (time_t)(step_ms / 1000) + wake.tv_nsec / 1000000000L;
    wake.tv_nsec %= 1000000000L;
    pthread_cond_timedwait(&dog->changed, &dog->lock, &wake);
  }
  pthread_mutex_unlock(&dog->lock);
  return 0;
}

static void set_limit(sqlite3_context *call, int argc, sqlite3_value **argv) {
  (void)argc;
  Watchdog *dog = sqlite3_user_data(call);
  sqlite3_int64 limit = sqlite3_value_int64(argv[0]);
  pthread_mutex_lock(&dog->lock);
  dog->limit_ms = limit > 0 ? limit : 0;
  pthread_cond_signal(&dog->changed);
  pthread_mutex_unlock(&dog->lock);
  sqlite3_result_int64(call, limit > 0 ? limit : 0);
}

/* Called as the connection closes: the watchdog stops before the connection goes. */
static void stop(void *context) {
  Watchdog *dog = context;
  pthread_mutex_lock(&dog->lock);
  dog->closing = 1;
  pthread_cond_signal(&dog->changed);
  pthread_mutex_unlock(&dog->lock);
  pthread_join(dog->thread, 0);
  pthread_cond_destroy(&dog->changed);
  pthread_mutex_destroy(&dog->lock);
  sqlite3_free(dog);
}

int sqlite3_statementtimeout_init(sqlite3 *db, char **error, const sqlite3_api_routines *api) {
  SQLITE_EXTENSION_INIT2(api);
  Watchdog *dog = sqlite3_malloc(sizeof *dog);
  if (dog == 0) return SQLITE_NOMEM;
  dog->db = db;
  dog->limit_ms = 0;
  dog->running = 0;
  dog->started_ms = 0;
  dog->closing = 0;
  pthread_mutex_init(&dog->lock, 0);
  pthread_cond_init(&dog->changed, 0);
  if (pthread_create(&dog->thread, 0, watch, dog) != 0) {
    pthread_cond_destroy(&dog->changed);
    pthread_mutex_destroy(&dog->lock);
    sqlite3_free(dog);
    *error = sqlite3_mprintf("statement_timeout: no watchdog thread could be started");
    return SQLITE_ERROR;
  }
  int status = sqlite3_trace_v2(db, SQLITE_TRACE_STMT | SQLITE_TRACE_PROFILE, on_trace, dog);
  if (status == SQLITE_OK) {
    /* From here the watchdog lives as long as the function, which goes with the connection. */
    status = sqlite3_create_function_v2(db, "statement_timeout", 1, SQLITE_UTF8 | SQLITE_DIRECTONLY, dog, set_limit, 0, 0, stop);
    if (status != SQLITE_OK) sqlite3_trace_v2(db, 0, 0, 0);
  }
  return status;
}
