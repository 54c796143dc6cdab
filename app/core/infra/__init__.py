"""Infrastructure: settings, the database and its migrations, logs, metrics, SQL helpers."""
