/* Groups: my groups and creating one (/g/); a group's day table, season, members and invite (/g/<code>). */
(function () {
  "use strict";
  var F = window.Farkle;
  var _ = F.gettext;

  /* The group refusals in the page's language, the shared ones as everywhere else. */
  function message(err) {
    var own = {
      invalid_code: _("A group code is 7 characters of 0-9 and A-Z, like G7K-4M2Q."),
      group_full: _("This group is full."),
      too_many_groups: _("You are already in 20 groups: leave one to join another."),
      not_a_member: _("Only the group's members see it: join it first."),
      forbidden: _("Only the group's creator can do that."),
      removed: _("The group's creator removed you from this group: you can join it again only if they let you back."),
    };
    return (err && own[err.code]) || F.errorMessage(err);
  }

  function showError(node, err) {
    node.textContent = message(err);
    node.hidden = false;
  }

  function monthName(month) {
    var d = new Date(month + "-01T00:00:00Z");
    return new Intl.DateTimeFormat(document.documentElement.lang || "en", { month: "long", year: "numeric", timeZone: "UTC" }).format(d);
  }

  /* ---- /g/: my groups and creating one ---- */
  var mine = document.querySelector("[data-my-groups]");
  if (mine) {
    F.api("/api/groups").then(function (list) {
      if (!list.length) return;
      mine.querySelector('[data-role="empty"]').hidden = true;
      var ul = mine.querySelector('[data-role="list"]');
      list.forEach(function (g) {
        var facts = [g.display_code, F.interpolate(F.ngettext("%(n)s member", "%(n)s members", g.members), { n: F.fmt(g.members) }, true)];
        facts.push(F.interpolate(_("%(n)s played today"), { n: F.fmt(g.finished) }, true));
        if (g.my_rank !== null) facts.push(F.interpolate(_("my rank today %(rank)s"), { rank: F.fmt(g.my_rank) }, true));
        ul.appendChild(F.el("li", {}, [
          F.el("a", { href: "/g/" + g.code, text: g.name }),
          F.el("span", { class: "small muted", text: facts.join(" · ") }),
        ]));
      });
    }).catch(function () {});
  }

  var createForm = document.querySelector("[data-create-group]");
  if (createForm) {
    createForm.addEventListener("submit", function (event) {
      event.preventDefault();
      var error = createForm.querySelector('[data-role="error"]');
      error.hidden = true;
      var button = createForm.querySelector('button[type="submit"]');
      button.disabled = true;
      F.api("/api/groups", { method: "POST", body: { name: createForm.name.value } }).then(function (group) {
        window.location.href = "/g/" + group.code;
      }).catch(function (err) {
        showError(error, err);
        button.disabled = false;
      });
    });
  }

  /* ---- /g/<code> ---- */
  var root = document.querySelector("[data-group]");
  if (!root) return;
  var code = root.dataset.code;
  var base = "/api/groups/" + code;
  var role = function (name) { return root.querySelector('[data-role="' + name + '"]'); };

  function action(name, run) {
    var button = root.querySelector('[data-action="' + name + '"]');
    if (button) button.addEventListener("click", function () { run(button); });
  }

  action("join", function (button) {
    button.disabled = true;
    F.api(base + "/members", { method: "POST" }).then(function () {
      window.location.reload();
    }).catch(function (err) {
      showError(role("join-error"), err);
      button.disabled = false;
    });
  });

  if (!root.dataset.member) return;

  function nameCell(row) {
    var cell = F.el("td", {}, [row.name]);
    if (row.me) cell.appendChild(F.el("span", { class: "badge you", text: _("you") }));
    return cell;
  }

  function stateText(state) {
    if (state === "finished") return _("finished");
    if (state === "playing") return _("playing");
    return _("not yet");
  }

  function renderToday(table) {
    var note = role("today-note");
    var played = F.interpolate(_("%(finished)s of %(members)s have played."), { finished: F.fmt(table.finished), members: F.fmt(table.members) }, true);
    note.textContent = table.revealed ? played : played + " " + _("Finish your official game of the day to see their scores.");
    var body = role("today-table").querySelector("tbody");
    body.textContent = "";
    table.rows.forEach(function (row) {
      var score = row.score !== null ? F.fmt(row.score) : stateText(row.state);
      body.appendChild(F.el("tr", { class: row.me ? "me" : "", "data-player": row.name }, [
        F.el("td", { class: "r num", text: row.rank !== null ? F.fmt(row.rank) : "–" }),
        nameCell(row),
        F.el("td", { class: "r num", "data-role": "cell-score", text: score }),
      ]));
    });
  }

  function seasonTable(node, rows) {
    node.textContent = "";
    var head = F.el("tr", {}, [
      F.el("th", { scope: "col", text: _("Player") }),
      F.el("th", { scope: "col", class: "r", text: _("Days") }),
      F.el("th", { scope: "col", class: "r", text: _("Wins") }),
      F.el("th", { scope: "col", class: "r", text: _("Avg."), title: _("Average") }),
      F.el("th", { scope: "col", class: "r", text: _("Total") }),
      F.el("th", { scope: "col", class: "r", text: _("Streak") }),
    ]);
    node.appendChild(F.el("thead", {}, [head]));
    var body = F.el("tbody");
    rows.forEach(function (r) {
      body.appendChild(F.el("tr", { class: r.me ? "me" : "" }, [
        nameCell(r),
        F.el("td", { class: "r num", text: F.fmt(r.days) }),
        F.el("td", { class: "r num", text: F.fmt(r.wins) }),
        F.el("td", { class: "r num", text: r.average !== null ? F.fmt(r.average) : "–" }),
        F.el("td", { class: "r num", text: F.fmt(r.total) }),
        F.el("td", { class: "r num", text: F.fmt(r.streak) }),
      ]));
    });
    node.appendChild(body);
  }

  var monthSelect = role("season-month");
  function loadSeason(month) {
    return F.api(base + "/season" + (month ? "?month=" + month : "")).then(function (season) {
      if (!monthSelect.options.length) {
        season.months.forEach(function (m) {
          monthSelect.appendChild(F.el("option", { value: m, text: monthName(m) }));
        });
      }
      monthSelect.value = season.month;
      role("month-title").textContent = monthName(season.month);
      seasonTable(role("month-table"), season.month_table);
      seasonTable(role("all-table"), season.all_time);
      showScrollHint();
    });
  }
  monthSelect.addEventListener("change", function () { loadSeason(monthSelect.value); });

  // On a narrow screen the season's six columns do not fit: the tables scroll sideways, which
  // nothing shows by itself, so a line says so while one of them is cut.
  function showScrollHint() {
    var cut = Array.prototype.some.call(role("season").querySelectorAll(".table-scroll"), function (wrap) {
      return wrap.scrollWidth > wrap.clientWidth + 1;
    });
    role("scroll-hint").hidden = !cut;
  }
  window.addEventListener("resize", showScrollHint);

  function loadMembers() {
    return F.api(base + "/members").then(function (members) {
      var ul = role("members");
      ul.textContent = "";
      members.forEach(function (m) {
        var item = F.el("li", {}, [F.el("span", { text: m.name })]);
        if (m.creator) item.appendChild(F.el("span", { class: "small muted", text: _("created the group") }));
        if (root.dataset.creator && !m.creator) {
          var remove = F.el("button", { type: "button", class: "btn small", text: _("Remove"), "aria-label": F.interpolate(_("Remove %(name)s"), { name: m.name }, true) });
          remove.addEventListener("click", function () {
            if (!window.confirm(F.interpolate(_("Remove %(name)s from the group? They cannot join again unless you let them back."), { name: m.name }, true))) return;
            F.api(base + "/members/" + m.id, { method: "DELETE" }).then(function () {
              role("manage-error").hidden = true;
              F.announce(F.interpolate(_("%(name)s was removed."), { name: m.name }, true));
              // Out of today's table too, at once: not on the next reload.
              return Promise.all([loadMembers(), loadRemoved(), F.api(base + "/table").then(renderToday)]);
            }).catch(function (err) { showError(role("manage-error"), err); });
          });
          item.appendChild(remove);
        }
        ul.appendChild(item);
      });
    });
  }

  /* The creator's list of the players they removed, each with a button to let them back. */
  function loadRemoved() {
    var block = role("removed-block");
    if (!block) return Promise.resolve();
    return F.api(base + "/removed").then(function (removed) {
      var ul = role("removed");
      ul.textContent = "";
      block.hidden = !removed.length;
      removed.forEach(function (r) {
        var back = F.el("button", { type: "button", class: "btn small", text: _("Let back"), "aria-label": F.interpolate(_("Let %(name)s back"), { name: r.name }, true) });
        back.addEventListener("click", function () {
          F.api(base + "/removed/" + r.id, { method: "DELETE" }).then(function () {
            role("manage-error").hidden = true;
            F.announce(F.interpolate(_("%(name)s may join again with the group's link."), { name: r.name }, true));
            return loadRemoved();
          }).catch(function (err) { showError(role("manage-error"), err); });
        });
        ul.appendChild(F.el("li", {}, [F.el("span", { text: r.name }), back]));
      });
    });
  }

  F.api(base + "/table").then(renderToday).catch(function (err) { role("today-note").textContent = message(err); });
  loadSeason(null).catch(function () {});
  loadMembers().catch(function () {});
  loadRemoved().catch(function () {});

  var rename = role("rename");
  if (rename) {
    rename.addEventListener("submit", function (event) {
      event.preventDefault();
      F.api(base, { method: "PATCH", body: { name: rename.name.value } }).then(function (group) {
        role("manage-error").hidden = true;
        // The tab's title too: it is the name followed by the site's own suffix.
        var heading = document.querySelector('[data-role="group-name"]');
        var suffix = document.title.slice(heading.textContent.length);
        heading.textContent = group.name;
        document.title = group.name + suffix;
        F.announce(_("Group renamed."));
      }).catch(function (err) { showError(role("manage-error"), err); });
    });
  }
  action("new-code", function (button) {
    if (!window.confirm(_("Give the group a new code? The current link and code stop working at once; the members stay."))) return;
    button.disabled = true;
    F.api(base + "/code", { method: "POST" }).then(function (group) {
      window.location.href = "/g/" + group.code;
    }).catch(function (err) {
      showError(role("code-error"), err);
      button.disabled = false;
    });
  });
  action("close", function () {
    if (!window.confirm(_("Close the group for everyone? Its table and season go; the games stay."))) return;
    F.api(base, { method: "DELETE" }).then(function () { window.location.href = "/g/"; }).catch(function (err) { showError(role("manage-error"), err); });
  });
  action("leave", function () {
    if (!window.confirm(_("Leave this group?"))) return;
    F.api(base + "/members/me", { method: "DELETE" }).then(function () { window.location.href = "/g/"; }).catch(function (err) { showError(role("manage-error"), err); });
  });

  // The system share sheet where the browser has one (phones); the copy buttons everywhere.
  var share = root.querySelector('[data-action="share-invite"]');
  if (share && navigator.share) {
    share.hidden = false;
    share.addEventListener("click", function () {
      navigator.share({ title: document.title, url: document.getElementById("invite-link").value }).catch(function () {});
    });
  }
})();
