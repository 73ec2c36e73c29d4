/* The player's palette (issue 40): the site's colours or a colour-blind-safe set, for the share
 * squares and the pages' colour-coded marks. Loaded in the head without `defer`, so that
 * <html data-palette> is set before the page is drawn (no flash of the other colours); the
 * stylesheet's variables follow the attribute, and pages read the squares from here.
 *
 * The browser's copy (localStorage) is what the page applies at once. The player's own copy is
 * on the server (/api/me/preferences): written when the player changes it, and read once a
 * browsing session, so that an account's choice reaches every browser it logs in on. More
 * palettes can be added (issue 41): a name in PALETTES, its squares, its CSS block. */
(function () {
  "use strict";
  var STORE = "farkle:palette";
  var SYNCED = "farkle:palette-synced";
  var DEFAULT = "default";

  // Farkle, under 500, 500-999, 1,000 or more, nothing banked. The colour-blind set is a ramp of
  // lightness (white, yellow, orange, blue, black) that reads in any colour vision and in grey.
  var SQUARES = {
    default: { farkle: "🟥", low: "🟨", mid: "🟩", high: "🟦", none: "⬜" },
    colourblind: { farkle: "⬛", low: "🟨", mid: "🟧", high: "🟦", none: "⬜" },
  };

  function known(name) {
    return Object.prototype.hasOwnProperty.call(SQUARES, name) ? name : DEFAULT;
  }

  function stored() {
    try { return known(window.localStorage.getItem(STORE)); } catch (e) { return DEFAULT; }
  }

  function apply(name) {
    var root = document.documentElement;
    if (name === DEFAULT) root.removeAttribute("data-palette");
    else root.setAttribute("data-palette", name);
    document.dispatchEvent(new CustomEvent("farkle:palette", { detail: { palette: name } }));
  }

  function keep(name) {
    try { window.localStorage.setItem(STORE, name); } catch (e) { /* private mode: this page only */ }
  }

  function request(method, body) {
    var headers = { Accept: "application/json" };
    if (body) {
      headers["Content-Type"] = "application/json";
      var token = document.cookie.match(/(?:^|; )csrftoken=([^;]*)/);
      headers["X-CSRFToken"] = token ? decodeURIComponent(token[1]) : "";
    }
    return fetch("/api/me/preferences", {
      method: method, headers: headers, credentials: "same-origin",
      body: body ? JSON.stringify(body) : undefined,
    }).then(function (response) { return response.ok ? response.json() : null; });
  }

  /* The player's choice: applied now, kept in this browser and on the player (a browser
   * without a player yet keeps it alone). */
  function set(name) {
    name = known(name);
    keep(name);
    apply(name);
    return request("PATCH", { palette: name }).catch(function () { return null; });
  }

  function current() {
    return known(document.documentElement.getAttribute("data-palette") || DEFAULT);
  }

  function squares(name) {
    return SQUARES[known(name || current())];
  }

  apply(stored());

  document.addEventListener("DOMContentLoaded", function () {
    var synced = null;
    try { synced = window.sessionStorage.getItem(SYNCED); } catch (e) { synced = "1"; }
    if (synced) return;
    request("GET").then(function (data) {
      try { window.sessionStorage.setItem(SYNCED, "1"); } catch (e) { /* private mode */ }
      // null: the browser has no player yet, and its own copy stands.
      if (!data || !data.palette || known(data.palette) === current()) return;
      keep(known(data.palette));
      apply(known(data.palette));
    }).catch(function () {});
  });

  window.FarklePalette = { set: set, current: current, squares: squares, names: Object.keys(SQUARES) };
})();
