// The system's SQLite C API (libsqlite3; Debian's libsqlite3-dev, the SDK's libsqlite3 on Apple platforms), for
// SQLiteStorage (DESIGN.md §4 "Storage").
#include <sqlite3.h>
