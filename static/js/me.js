/* My player: name, stats, history, personal distribution; sign up, log in, log out. */
(function () {
  "use strict";
  var F = window.Farkle;
  var _ = F.gettext;
  var root = document.querySelector("[data-me]");
  if (!root) return;
  var role = function (name, scope) { return (scope || root).querySelector('[data-role="' + name + '"]'); };
  var form = function (name) { return root.querySelector('[data-form="' + name + '"]'); };

  function showError(formNode, err) {
    var box = role("error", formNode);
    box.textContent = err ? F.errorMessage(err) : "";
    box.hidden = !err;
  }

  function render(me) {
    // A guest who has not played sees an invitation to play instead of empty stats.
    role("welcome").hidden = !!me;
    root.querySelectorAll('[data-role="player-only"]').forEach(function (node) { node.hidden = !me; });
    var heading = role("name");
    heading.textContent = me ? me.name : _("Me");
    var badge = role("account-badge");
    badge.hidden = !me;
    if (me) {
      badge.textContent = me.account ? _("Account") : _("Guest");
      badge.className = "badge" + (me.account ? "" : " practice");
    }
    form("rename").name.value = me ? me.name : "";
    role("logged-in").hidden = !(me && me.account);
    role("guest").hidden = !!(me && me.account);
    if (me && me.account) {
      role("logged-in-text").textContent = F.interpolate(_("Logged in as %(user)s."), { user: me.account }, true);
    }
    var stats = me ? me.stats : {};
    ["current_streak", "best_streak", "finished", "best", "average"].forEach(function (key) {
      root.querySelector('[data-stat="' + key + '"]').textContent = me ? F.fmt(stats[key]) : "–";
    });
    var body = role("history");
    body.textContent = "";
    var history = me ? me.history : [];
    var todayIso = new Date().toISOString().slice(0, 10);
    if (!history.length) {
      body.appendChild(F.el("tr", {}, [F.el("td", { colspan: "4", class: "muted", text: _("No official daily played yet.") })]));
    }
    history.forEach(function (result) {
      var score = result.state === "finished" ? F.fmt(result.score) : F.interpolate(_("%(score)s (playing)"), { score: F.fmt(result.score) }, true);
      body.appendChild(F.el("tr", {}, [
        F.el("td", {}, [
          F.el("a", { href: "/daily/" + result.date, text: F.fmtDate(result.date) }),
          result.date < todayIso && result.state === "finished" ? " · " : null,
          result.date < todayIso && result.state === "finished"
            ? F.el("a", { class: "small", href: "/verify?date=" + result.date + "&attempt=" + result.attempt, text: _("check") })
            : null,
          result.state === "finished" ? " · " : null,
          result.state === "finished"
            ? F.el("a", { class: "small", "data-role": "replay-link", href: "/attempts/" + result.attempt + "/replay", text: _("replay") })
            : null,
        ]),
        F.el("td", { class: "r", text: score }),
        F.el("td", { class: "r", text: result.rank ? "#" + F.fmt(result.rank) : "–" }),
        F.el("td", { class: "r", text: result.percentile === null || result.percentile === undefined ? "–" : F.pct(result.percentile / 100, 0) }),
      ]));
    });
    // My own distribution: my finished official scores in bars of 500, like the days' charts.
    var scores = history.filter(function (r) { return r.state === "finished"; }).map(function (r) { return r.score; });
    var figure = role("histogram");
    if (scores.length) {
      var width = 500;
      var top = Math.max.apply(null, scores);
      var buckets = [];
      for (var start = 0; start <= top; start += width) buckets.push({ start: start, end: start + width, count: 0 });
      scores.forEach(function (s) { buckets[Math.floor(s / width)].count += 1; });
      F.histogram(figure, buckets, { caption: _("My scores, in bars of 500 points (latest 30 dailies).") });
    } else {
      figure.hidden = true;
    }
    renderRating(me ? me.rating : null, history.length > 0);
  }

  var SVG = "http://www.w3.org/2000/svg";
  function svg(tag, attrs, text) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /* The rating after each rated day, oldest first: a line inside its likely range (two
     deviations either side), one point a day. */
  function ratingChart(figure, days) {
    figure.textContent = "";
    // Drawn at the card's own width, so that its labels keep their size on a phone.
    var width = Math.max(280, Math.min(640, figure.parentNode.clientWidth || 560));
    var height = width < 420 ? 170 : 200, left = 48, right = 12, top = 12, bottom = 28;
    var lows = days.map(function (d) { return d.rating - 2 * d.deviation; });
    var highs = days.map(function (d) { return d.rating + 2 * d.deviation; });
    var low = Math.floor(Math.min.apply(null, lows) / 100) * 100;
    var high = Math.ceil(Math.max.apply(null, highs) / 100) * 100;
    var plotW = width - left - right, plotH = height - top - bottom;
    function x(i) { return left + (days.length === 1 ? plotW / 2 : (i / (days.length - 1)) * plotW); }
    function y(v) { return top + (1 - (v - low) / (high - low)) * plotH; }
    var first = days[0], last = days[days.length - 1];
    var summary = F.interpolate(
      F.ngettext(
        "Skill rating over %(days)s rated day, from %(first)s on %(from)s to %(last)s on %(to)s.",
        "Skill rating over %(days)s rated days, from %(first)s on %(from)s to %(last)s on %(to)s.",
        days.length
      ),
      { days: F.fmt(days.length), first: F.fmt(Math.round(first.rating)), from: F.fmtDate(first.date), last: F.fmt(Math.round(last.rating)), to: F.fmtDate(last.date) },
      true
    );
    var chart = svg("svg", { viewBox: "0 0 " + width + " " + height, role: "img", "aria-label": summary });
    chart.appendChild(svg("title", {}, summary));
    [low, (low + high) / 2, high].forEach(function (v) {
      chart.appendChild(svg("line", { x1: left, x2: width - right, y1: y(v).toFixed(1), y2: y(v).toFixed(1), class: "grid" }));
      chart.appendChild(svg("text", { x: left - 6, y: (y(v) + 4).toFixed(1), "text-anchor": "end", class: "axis" }, F.fmt(Math.round(v))));
    });
    var band = days.map(function (d, i) { return x(i).toFixed(1) + "," + y(highs[i]).toFixed(1); })
      .concat(days.slice().reverse().map(function (d, j) {
        var i = days.length - 1 - j;
        return x(i).toFixed(1) + "," + y(lows[i]).toFixed(1);
      }));
    chart.appendChild(svg("polygon", { points: band.join(" "), class: "band" }));
    chart.appendChild(svg("polyline", {
      points: days.map(function (d, i) { return x(i).toFixed(1) + "," + y(d.rating).toFixed(1); }).join(" "),
      class: "line",
    }));
    days.forEach(function (d, i) {
      var dot = svg("circle", { cx: x(i).toFixed(1), cy: y(d.rating).toFixed(1), r: days.length > 40 ? 2 : 3.5, class: "dot" });
      dot.appendChild(svg("title", {}, F.interpolate(_("%(date)s: %(rating)s"), { date: F.fmtDate(d.date), rating: F.fmt(Math.round(d.rating)) }, true)));
      chart.appendChild(dot);
    });
    chart.appendChild(svg("text", { x: left, y: height - 8, class: "axis" }, F.fmtDate(first.date)));
    if (days.length > 1) {
      chart.appendChild(svg("text", { x: width - right, y: height - 8, "text-anchor": "end", class: "axis" }, F.fmtDate(last.date)));
    }
    figure.appendChild(chart);
    figure.appendChild(F.el("figcaption", { text: _("The line is your rating after each rated day; the shaded band, where it likely is.") }));
    figure.hidden = false;
  }

  /* Before the first rated day: when it will come, for a player who has played or not yet. */
  function renderRating(rating, played) {
    var current = rating && rating.current;
    role("rating-none").hidden = !!current || played;
    role("rating-soon").hidden = !!current || !played;
    role("rating-current").hidden = !current;
    role("rating-table").hidden = !current;
    var figure = role("rating-chart");
    if (!current) {
      figure.hidden = true;
      return;
    }
    role("rating-value").textContent = F.fmt(Math.round(current.rating));
    role("rating-range").textContent = F.interpolate(
      _("likely between %(low)s and %(high)s"),
      { low: F.fmt(Math.round(current.low)), high: F.fmt(Math.round(current.high)) },
      true
    );
    role("rating-days").textContent = F.interpolate(
      F.ngettext(
        "After %(days)s rated day (latest: %(date)s, accuracy %(accuracy)s). The more days you play, the narrower the range.",
        "After %(days)s rated days (latest: %(date)s, accuracy %(accuracy)s). The more days you play, the narrower the range.",
        rating.days
      ),
      { days: F.fmt(rating.days), date: F.fmtDate(current.date), accuracy: F.pct(current.accuracy / 100, 1) },
      true
    );
    var days = rating.history.slice().reverse();
    if (days.length > 1) ratingChart(figure, days);
    else figure.hidden = true;
    var body = role("rating-history");
    body.textContent = "";
    rating.history.forEach(function (d) {
      body.appendChild(F.el("tr", {}, [
        F.el("td", {}, [F.el("a", { href: "/daily/" + d.date, text: F.fmtDate(d.date) })]),
        F.el("td", { class: "r", text: F.pct(d.accuracy / 100, 1) }),
        F.el("td", { class: "r" }, [
          F.fmt(Math.round(d.rating)),
          F.el("br"),
          F.el("span", { class: "small muted", text: "±\u00a0" + F.fmt(Math.round(2 * d.deviation)) }),
        ]),
      ]));
    });
  }

  function load() {
    // The server said whether this browser has a player: without one there is nothing to ask.
    if (root.dataset.hasPlayer !== "1") {
      render(null);
      return Promise.resolve();
    }
    return F.api("/api/me").then(render, function (err) {
      if (err.status === 404) render(null);
      else role("intro").textContent = F.errorMessage(err);
    });
  }

  /* Who this browser is has changed: the name form's "Saved." was about the player before, and
     the change is said where the player looks, not only to a screen reader. */
  function changed(text) {
    role("ok", form("rename")).hidden = true;
    var notice = role("account-notice");
    notice.textContent = text;
    notice.hidden = false;
  }

  function credentials(node) {
    return { username: node.username.value, password: node.password.value };
  }

  function submit(name, run) {
    var node = form(name);
    node.addEventListener("submit", function (event) {
      event.preventDefault();
      if (role("error", node)) showError(node, null);
      var button = node.querySelector('button[type="submit"]');
      button.disabled = true;
      run(node).catch(function (err) {
        if (role("error", node)) showError(node, err);
      }).then(function () { button.disabled = false; });
    });
  }

  submit("rename", function (node) {
    var ok = role("ok", node);
    ok.hidden = true;
    return F.api("/api/me", { method: "PATCH", body: { name: node.name.value } }).then(function (me) {
      root.dataset.hasPlayer = "1";
      role("account-notice").hidden = true;
      render(me);
      ok.textContent = _("Saved.");
      ok.hidden = false;
    });
  });
  submit("signup", function (node) {
    return F.api("/api/auth/signup", { method: "POST", body: credentials(node) }).then(function (me) {
      root.dataset.hasPlayer = "1";
      node.reset();
      render(me);
      changed(_("Account created. You are logged in."));
    });
  });
  submit("login", function (node) {
    return F.api("/api/auth/login", { method: "POST", body: credentials(node) }).then(function (me) {
      root.dataset.hasPlayer = "1";
      node.reset();
      render(me);
      changed(_("Logged in."));
    });
  });
  submit("logout", function () {
    return F.api("/api/auth/logout", { method: "POST" }).then(function () {
      // Logging out forgets the account's player: this browser is a guest without one again.
      root.dataset.hasPlayer = "0";
      changed(_("Logged out. This browser plays as a new guest until you log in again."));
      return load();
    });
  });

  load();
})();
