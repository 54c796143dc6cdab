"""Domain rules every resource shares: statuses and limits, dates, permissions, HTML, slugs."""
