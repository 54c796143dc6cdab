// The pages' maps (the map view, a venue's page): Leaflet, served by almanac, over the tiles
// of MAP_TILES_URL, with a marker per venue from the page's own data (a JSON script element,
// #map-data, that the server wrote: no inline script runs). Each marker's popup names the
// venue and its events with their days and links. Without this script, or without tiles,
// the page is its list and each venue links to its place on OpenStreetMap.
(function () {
  "use strict";
  var box = document.getElementById("map");
  var data = document.getElementById("map-data");
  if (!box || !data || typeof window.L === "undefined" || !box.dataset.tiles) {
    return;
  }
  var markers = JSON.parse(data.textContent || "[]");
  if (!markers.length) {
    return;
  }
  var L = window.L;
  box.hidden = false;
  // The page scrolls with the wheel; the map zooms with its buttons, keys or a pinch.
  var map = L.map(box, { scrollWheelZoom: false });
  map.attributionControl.setPrefix(false);
  L.tileLayer(box.dataset.tiles, {
    attribution: box.dataset.attribution || "",
    maxZoom: 19,
  }).addTo(map);

  function link(url, text) {
    var anchor = document.createElement("a");
    anchor.href = url;
    anchor.textContent = text;
    return anchor;
  }

  function popup(marker) {
    var content = document.createElement("div");
    var heading = document.createElement("p");
    heading.className = "map-venue";
    heading.appendChild(link(marker.url, marker.name));
    content.appendChild(heading);
    if (marker.events.length) {
      var list = document.createElement("ul");
      marker.events.forEach(function (event) {
        var item = document.createElement("li");
        item.appendChild(link(event.url, event.title));
        item.appendChild(document.createTextNode(" · " + event.when));
        list.appendChild(item);
      });
      content.appendChild(list);
    }
    return content;
  }

  var points = markers.map(function (marker) {
    var point = [marker.lat, marker.lng];
    L.marker(point, { title: marker.name, alt: marker.name })
      .bindPopup(popup(marker))
      .addTo(map);
    return point;
  });
  if (points.length === 1) {
    map.setView(points[0], Number(box.dataset.zoom || 15));
  } else {
    map.fitBounds(points, { padding: [24, 24], maxZoom: 15 });
  }
})();
