// The venue editor's map (app/desk/templates/desk/venue_position.html): Leaflet, served by
// almanac (the pages' copy), over the tiles of MAP_TILES_URL. The marker stands at the
// latitude and longitude fields (or at the gazetteer's suggestion, or nowhere); dragging it
// (with the mouse, or its keyboard focus and the arrow keys after a drag) or clicking the map
// writes the fields, and typing in them moves it. The form is saved as without the map: the
// fields are what is sent. Without this script or tiles the fields are the whole of it.
(function () {
  "use strict";
  var box = document.getElementById("position-map");
  var lat = document.getElementById("f-geo_lat");
  var lng = document.getElementById("f-geo_lng");
  if (!box || !lat || !lng || typeof window.L === "undefined" || !box.dataset.tiles) {
    return;
  }
  var L = window.L;
  box.hidden = false;
  var help = document.getElementById("position-map-help");
  if (help) {
    help.hidden = false;
  }
  var map = L.map(box, { scrollWheelZoom: false });
  map.attributionControl.setPrefix(false);
  L.tileLayer(box.dataset.tiles, {
    attribution: box.dataset.attribution || "",
    maxZoom: 19,
  }).addTo(map);

  function typed() {
    var a = Number(lat.value.trim());
    var b = Number(lng.value.trim());
    if (lat.value.trim() === "" || lng.value.trim() === "") {
      return null;
    }
    if (isFinite(a) && isFinite(b) && Math.abs(a) <= 90 && Math.abs(b) <= 180) {
      return [a, b];
    }
    return null;
  }

  function write(point) {
    var wrapped = point.wrap(); // a longitude past the antimeridian, back within ±180
    lat.value = wrapped.lat.toFixed(6);
    lng.value = wrapped.lng.toFixed(6);
  }

  var marker = null;
  function place(point) {
    if (marker) {
      marker.setLatLng(point);
      return;
    }
    var label = box.dataset.label || "";
    marker = L.marker(point, { draggable: true, title: label, alt: label }).addTo(map);
    marker.on("dragend", function () {
      write(marker.getLatLng());
    });
  }

  map.on("click", function (event) {
    place(event.latlng);
    write(event.latlng);
  });
  [lat, lng].forEach(function (field) {
    field.addEventListener("change", function () {
      var point = typed();
      if (point) {
        place(point);
        map.panTo(point);
      }
    });
  });

  var suggested = box.dataset.suggested ? box.dataset.suggested.split(",").map(Number) : null;
  var start = typed();
  if (start) {
    place(start);
    map.setView(start, 15);
  } else if (suggested) {
    map.setView(suggested, 12); // near, not placed: the person clicks the spot
  } else {
    map.setView([30, 10], 2);
  }
})();
