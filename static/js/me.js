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
