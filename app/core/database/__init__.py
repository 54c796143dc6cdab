"""The database: engine and sessions, the embedded server, migrations, SQL helpers, the
read replica and read-your-writes positions."""
