// The system's SQLite C API (libsqlite3: Debian's libsqlite3-dev, the SDK's on Apple platforms) for SQLiteStorage
// (DESIGN.md §4 "Storage"), and the one process-wide setting it makes.
#ifndef CSQLITE_H
#define CSQLITE_H

#include <sqlite3.h>

/// Turns off SQLite's memory-use statistics (sqlite.org/c3ref/c_config_covering_index_scan.html,
/// SQLITE_CONFIG_MEMSTATUS), which take a global mutex on every allocation. Effective only before SQLite is first
/// initialised in the process; returns SQLite's result code. A C function because sqlite3_config is variadic.
int csqlite_disable_memory_statistics(void);

#endif
