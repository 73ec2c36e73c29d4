/* Farkle Daily: what every page shares. Plain JavaScript, no build step.
 * The client shows what the API says; it never scores dice or decides what is legal. */
(function () {
  "use strict";

  var gettext = window.gettext || function (s) { return s; };
  var ngettext = window.ngettext || function (s, p, n) { return n === 1 ? s : p; };
  var interpolate = window.interpolate || function (fmt, obj, named) {
    if (named) return fmt.replace(/%\(\w+\)s/g, function (m) { return String(obj[m.slice(2, -2)]); });
    return fmt.replace(/%s/g, function () { return String(obj.shift()); });
  };

  function lang() {
    return document.documentElement.lang || "en";
  }

  var numberFormat = null;
  function fmt(n) {
    if (n === null || n === undefined || n === "") return "–";
    if (!numberFormat) numberFormat = new Intl.NumberFormat(lang());
    return numberFormat.format(n);
  }

  function fmtDecimal(n, digits) {
    if (n === null || n === undefined) return "–";
    return new Intl.NumberFormat(lang(), { maximumFractionDigits: digits }).format(n);
  }

  /* A share 0..1 as a percentage: 0.0772 → "7.72 %" (French) or "7.72%". */
  function pct(share, digits) {
    if (share === null || share === undefined) return "–";
    return new Intl.NumberFormat(lang(), {
      style: "percent",
      maximumFractionDigits: digits === undefined ? 1 : digits,
    }).format(share);
  }

  function fmtDate(iso) {
    var d = new Date(iso + "T00:00:00Z");
    // The pages' one form of a day: "November 29, 2026", "29 novembre 2026" (play/templatetags/dates.py),
    // and French's "1er décembre 2026" for a month's first day, which Intl writes "1 décembre".
    var format = new Intl.DateTimeFormat(lang(), { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
    return format.formatToParts(d).map(function (part) {
      return part.type === "day" && part.value === "1" && lang().slice(0, 2) === "fr" ? "1er" : part.value;
    }).join("");
  }

  function fmtTime(iso) {
    if (!iso) return "";
    return new Intl.DateTimeFormat(lang(), { timeStyle: "short", dateStyle: "short" }).format(new Date(iso));
  }

  function cookie(name) {
    var match = document.cookie.match(new RegExp("(?:^|; )" + name + "=([^;]*)"));
    return match ? decodeURIComponent(match[1]) : "";
  }

  function ApiError(status, data) {
    this.status = status;
    this.data = data || {};
    this.code = this.data.code || (status === 0 ? "network" : "error");
    this.detail = this.data.detail || "";
  }

  /* Call the JSON API. Unsafe methods carry the CSRF token, read from the cookie at each call:
   * it rotates at login and signup. */
  function api(url, options) {
    options = options || {};
    var method = options.method || "GET";
    var headers = { Accept: "application/json" };
    if (method !== "GET" && method !== "HEAD") {
      headers["X-CSRFToken"] = cookie("csrftoken");
      if (options.body !== undefined) headers["Content-Type"] = "application/json";
    }
    return fetch(url, {
      method: method,
      headers: headers,
      credentials: "same-origin",
      body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    }).then(
      function (response) {
        if (response.status === 204) return null;
        return response.text().then(function (text) {
          var data = null;
          try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
          if (!response.ok) throw new ApiError(response.status, data);
          return data;
        });
      },
      function () { throw new ApiError(0, null); }
    );
  }

  /* A refusal in the page's language; the API's own words for anything else. */
  function errorMessage(err) {
    var messages = {
      network: gettext("Cannot reach the server. Check your connection and try again."),
      stale_step: gettext("This game moved on elsewhere (another tab?): here it is as it stands."),
      day_closed: gettext("This daily has closed: the action came too late."),
      challenge_closed: gettext("This challenge has closed."),
      not_scoring: gettext("Those dice don't score together."),
      throttled: gettext("Too many requests: wait a moment, then try again."),
      forbidden: gettext("Your session has expired: reload the page."),
      finished: gettext("This game is over."),
      wrong_state: gettext("That move is not possible now."),
      not_found: gettext("Not found."),
      invalid_code: gettext("A code is 6 characters of 0-9 and A-Z, like K7M-2QX."),
      invalid_credentials: gettext("Wrong username or password."),
      name_taken: gettext("That name is taken: please choose another."),
      username_taken: gettext("That username is taken: please choose another."),
      invalid_name: gettext("Names are 3 to 24 letters, digits, spaces, - or _."),
      not_revealed: gettext("This puzzle is still open: its seed is revealed once it closes."),
      not_closed: gettext("This puzzle is still open: you can retry from a decision once it has closed."),
      server_error: gettext("Something went wrong on our side. Please try again."),
    };
    // A refused name says which rule it breaks (not allowed, passes for staff, a character):
    // the API words that reason in the page's language.
    if (err && err.code === "invalid_name" && err.detail) return err.detail;
    if (err && messages[err.code]) return messages[err.code];
    if (err && err.detail) return err.detail;
    return gettext("Something went wrong. Please try again.");
  }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (key) {
        var value = attrs[key];
        if (value === null || value === undefined || value === false) return;
        if (key === "text") node.textContent = value;
        else if (key === "class") node.className = value;
        else node.setAttribute(key, value === true ? "" : value);
      });
    }
    (children || []).forEach(function (child) {
      if (child === null || child === undefined) return;
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }

  /* A die drawn as its face: nine pip slots, CSS lights the face's pips. */
  function die(face, size, label) {
    var node = el("span", { class: "die" + (size ? " " + size : ""), "data-face": String(face) });
    for (var i = 0; i < 9; i++) node.appendChild(document.createElement("i"));
    if (label !== false) {
      node.setAttribute("role", "img");
      node.setAttribute("aria-label", label || String(face));
    } else {
      node.setAttribute("aria-hidden", "true");
    }
    return node;
  }

  function diceRow(faces, size) {
    var row = el("span", { class: "dice-row", role: "img", "aria-label": faces.join(", ") });
    faces.forEach(function (f) { row.appendChild(die(f, size, false)); });
    return row;
  }

  function announce(text, assertive) {
    var region = document.getElementById(assertive ? "announce-assertive" : "announce-polite");
    if (!region) return;
    region.textContent = "";
    // A fresh text node after a tick, so that the same words said twice are said twice.
    window.setTimeout(function () { region.textContent = text; }, 30);
  }

  var SVG = "http://www.w3.org/2000/svg";
  function svg(tag, attrs, text) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /* The score distribution as an inline SVG bar chart; the bar holding `mine` highlighted and a
   * dashed line at par. Buckets come from the API: [{start, end, count}]. */
  function histogram(figure, buckets, options) {
    options = options || {};
    figure.textContent = "";
    var hasMine = options.mine !== null && options.mine !== undefined;
    buckets = (buckets || []).slice();
    if (!buckets.length && !hasMine) {
      figure.hidden = true;
      return;
    }
    figure.hidden = false;
    // A score outside the day's range (a practice game above the best official one) still gets
    // its bar: empty bars are added up to it.
    var step = buckets.length ? buckets[0].end - buckets[0].start : options.bucketWidth || 500;
    while (hasMine && (!buckets.length || options.mine >= buckets[buckets.length - 1].end)) {
      var from = buckets.length ? buckets[buckets.length - 1].end : 0;
      buckets.push({ start: from, end: from + step, count: 0 });
    }
    // Empty bars below the lowest score say nothing: start one bar before it (and before par).
    var firstUsed = 0;
    while (firstUsed < buckets.length - 1 && !buckets[firstUsed].count) firstUsed++;
    var firstShown = Math.max(0, firstUsed - 1);
    if (options.par) {
      while (firstShown > 0 && buckets[firstShown].start > options.par) firstShown--;
    }
    if (hasMine) {
      while (firstShown > 0 && buckets[firstShown].start > options.mine) firstShown--;
    }
    buckets = buckets.slice(firstShown);
    var offset = buckets[0].start;
    // Drawn at the figure's own width, one unit a pixel, so that labels keep their 12 px on a
    // phone instead of shrinking with a fixed 640-unit drawing.
    var width = Math.max(260, Math.round(figure.clientWidth || 640)), height = 210, left = 8, right = 8, top = 40, bottom = 26;
    // The par label sits in its own strip above the mine label, which sits above the tallest bar.
    var plotW = width - left - right, plotH = height - top - bottom;
    var max = Math.max.apply(null, buckets.map(function (b) { return b.count; })) || 1;
    var lastEnd = buckets[buckets.length - 1].end;
    var bucketWidth = buckets[0].end - buckets[0].start;
    var scaleEnd = Math.max(lastEnd, options.par ? options.par + 1 : 0);
    var slot = plotW / Math.ceil((scaleEnd - offset) / bucketWidth);
    var mineIndex = -1;
    if (options.mine !== null && options.mine !== undefined) {
      buckets.forEach(function (b, i) { if (options.mine >= b.start && options.mine < b.end) mineIndex = i; });
    }
    var total = buckets.reduce(function (a, b) { return a + b.count; }, 0);
    var summary = interpolate(
      ngettext("Score distribution: %(players)s player, from %(low)s to %(high)s points.", "Score distribution: %(players)s players, from %(low)s to %(high)s points.", total),
      {
        players: fmt(total),
        low: fmt(buckets[0].start),
        high: fmt(lastEnd),
      },
      true
    );
    if (mineIndex >= 0) {
      summary += " " + interpolate(gettext("Your score is in the %(low)s–%(high)s bar."), {
        low: fmt(buckets[mineIndex].start),
        high: fmt(buckets[mineIndex].end - 1),
      }, true);
    }
    var chart = svg("svg", { viewBox: "0 0 " + width + " " + height, role: "img", "aria-label": summary });
    chart.appendChild(svg("title", {}, summary));
    chart.appendChild(svg("line", { x1: left, x2: width - right, y1: top + plotH, y2: top + plotH, stroke: "#d8d0bf" }));
    // A label needs about 44 px: fewer of them on a narrow chart.
    var labelEvery = Math.max(1, Math.ceil(buckets.length / Math.max(2, Math.floor(plotW / 44))));
    buckets.forEach(function (b, i) {
      var h = b.count ? Math.max(3, (b.count / max) * plotH) : i === mineIndex ? 3 : 0;
      var x = left + i * slot;
      var bar = svg("rect", {
        x: (x + 1.5).toFixed(1), y: (top + plotH - h).toFixed(1),
        width: Math.max(1, slot - 3).toFixed(1), height: h.toFixed(1), rx: 3,
        class: "bar" + (i === mineIndex ? " mine" : ""),
      });
      bar.appendChild(svg("title", {}, interpolate(gettext("%(range)s: %(count)s"), { range: fmt(b.start) + "–" + fmt(b.end - 1), count: fmt(b.count) }, true)));
      chart.appendChild(bar);
      if (i % labelEvery === 0) {
        chart.appendChild(svg("text", { x: x + 2, y: height - 8, class: "axis" }, fmt(b.start)));
      }
      if (i === mineIndex) {
        chart.appendChild(svg("text", {
          x: (x + slot / 2).toFixed(1), y: (top + plotH - h - 6).toFixed(1),
          "text-anchor": "middle", class: "mine-label",
        }, options.mineLabel || gettext("You")));
      }
    });
    if (options.par) {
      var px = left + ((options.par - offset) / bucketWidth) * slot;
      chart.appendChild(svg("line", { x1: px.toFixed(1), x2: px.toFixed(1), y1: 20, y2: top + plotH, class: "par-line" }));
      var nearRight = px > width * 0.6;
      chart.appendChild(svg("text", {
        x: (nearRight ? px - 4 : px + 4).toFixed(1), y: 15, class: "par-label",
        "text-anchor": nearRight ? "end" : "start",
      }, gettext("par") + " " + fmt(options.par)));
    }
    figure.appendChild(chart);
    if (options.caption) figure.appendChild(el("figcaption", { text: options.caption }));
  }

  /* Copy text to the clipboard; resolves true when copied, false when the clipboard is not
   * available (the caller then shows the text to copy by hand). */
  function copyText(text) {
    if (!navigator.clipboard || !window.isSecureContext) return Promise.resolve(false);
    return navigator.clipboard.writeText(text).then(
      function () { return true; },
      function () { return false; }
    );
  }

  /* Buttons with data-copy="#input-id" copy that field's value. */
  function wireCopyButtons(root) {
    (root || document).querySelectorAll("[data-copy]").forEach(function (button) {
      if (button.dataset.wired) return;
      button.dataset.wired = "1";
      button.addEventListener("click", function () {
        var field = document.querySelector(button.dataset.copy);
        var status = button.parentNode.querySelector("[data-copy-status]");
        copyText(field.value).then(function (ok) {
          if (!ok) {
            field.focus();
            field.select();
          }
          var text = ok ? gettext("Copied!") : gettext("Select the text and copy it.");
          if (status) status.textContent = text;
          announce(text);
        });
      });
    });
  }

  /* "Next daily in hh:mm:ss": the server's clock decides when the day changes. */
  function startCountdowns() {
    document.querySelectorAll("[data-countdown]").forEach(function (node) {
      var until = Date.parse(node.dataset.until);
      var offset = Date.parse(node.dataset.serverNow) - Date.now();
      var value = node.querySelector("[data-countdown-value]");
      function pad(n) { return n < 10 ? "0" + n : String(n); }
      function tick() {
        var left = Math.max(0, Math.floor((until - (Date.now() + offset)) / 1000));
        if (left === 0) {
          value.textContent = gettext("now: reload for the new daily");
          return;
        }
        value.textContent = pad(Math.floor(left / 3600)) + ":" + pad(Math.floor(left / 60) % 60) + ":" + pad(left % 60);
        window.setTimeout(tick, 1000 - (Date.now() % 1000) + 5);
      }
      tick();
    });
  }

  window.Farkle = {
    gettext: gettext,
    ngettext: ngettext,
    interpolate: interpolate,
    fmt: fmt,
    fmtDecimal: fmtDecimal,
    pct: pct,
    fmtDate: fmtDate,
    fmtTime: fmtTime,
    api: api,
    ApiError: ApiError,
    errorMessage: errorMessage,
    el: el,
    die: die,
    diceRow: diceRow,
    announce: announce,
    histogram: histogram,
    copyText: copyText,
    wireCopyButtons: wireCopyButtons,
  };

  document.addEventListener("DOMContentLoaded", function () {
    startCountdowns();
    wireCopyButtons();
  });
})();
