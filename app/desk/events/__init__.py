"""The desk's event editor, in one place: its screens (editor.py: new, edit, save, the
series' dates, translations; duplicate.py), what they call the services with (editing.py),
the form and its values (form.py, recurrence_form.py), the series' dates (series_dates.py)
and the refusals' messages at their fields (messages.py)."""
