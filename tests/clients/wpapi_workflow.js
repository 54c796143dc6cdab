// node-wpapi, the common JavaScript client of WordPress-style REST APIs, used as its README
// shows, against a running almanac: discover() from the site's root URL, then list, read (by
// ID and by slug), create, update, trash and delete an event. Run by tests/live/test_clients.py:
//   node wpapi_workflow.js <site root URL> <login> <application password>
// Asserts as it goes (exit 1 with the failure), and prints what it saw as one JSON line.
'use strict';

const assert = require('node:assert/strict');
const WPAPI = require('wpapi');

async function main([root, username, password]) {
  const site = await WPAPI.discover(root);
  site.auth({ username, password });
  const calendar = site.namespace('calendar/events/v1');
  const seen = { endpoint: site._options.endpoint, resources: Object.keys(calendar).sort() };

  const created = await calendar.events().create({
    title: 'Discovered concert',
    start_date: '+3 days 19:00',
    end_date: '+3 days 21:00',
    categories: ['Jazz'],
  });
  assert.equal(created.title, 'Discovered concert');
  seen.created = { id: created.id, slug: created.slug };

  const listed = await calendar.events().param('search', 'Discovered').get();
  seen.listed = listed.events.map((event) => event.id);
  seen.total = listed._paging.total;

  const byId = await calendar.events().id(created.id).get();
  const bySlug = await calendar.events().bySlug(created.slug).get();
  assert.equal(byId.id, created.id);
  assert.equal(bySlug.id, created.id);
  seen.read = [byId.title, bySlug.title];

  // update() sends a PUT.
  const updated = await calendar.events().id(created.id).update({ title: 'Discovered concert, moved' });
  seen.updated = updated.title;
  const renamed = await calendar.events().bySlug(created.slug).update({ excerpt: 'Short' });
  seen.excerpt = renamed.excerpt;

  const trashed = await calendar.events().id(created.id).delete();
  seen.trashed = trashed.status;
  const deleted = await calendar.events().id(created.id).param('force', true).delete();
  seen.deleted = deleted.id;
  try {
    await calendar.events().id(created.id).get();
    seen.after = 'still there';
  } catch (error) {
    seen.after = error.code;
  }
  return seen;
}

main(process.argv.slice(2)).then(
  (seen) => console.log(JSON.stringify(seen)),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
