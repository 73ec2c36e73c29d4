/* Friend challenges: the creation form and the list of my challenges. */
(function () {
  "use strict";
  var F = window.Farkle;
  var _ = F.gettext;

  var form = document.querySelector("[data-create-challenge]");
  if (form) {
    var error = form.querySelector('[data-role="error"]');
    var created = document.querySelector('[data-role="created"]');
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      error.hidden = true;
      var days = parseInt(form.days.value, 10);
      var body = { title: form.title.value, table: form.table.value };
      if (!isNaN(days)) body.days = days;
      // Issue 14: house rules and a clock per turn, each off by default.
      body.entry_minimum = parseInt(form.entry_minimum.value, 10) || 0;
      body.farkle_penalty = parseInt(form.farkle_penalty.value, 10) || 0;
      body.turn_seconds = parseInt(form.turn_seconds.value, 10) || null;
      var button = form.querySelector('button[type="submit"]');
      button.disabled = true;
      F.api("/api/challenges", { method: "POST", body: body }).then(function (challenge) {
        created.querySelector('[data-role="code"]').textContent = challenge.display_code;
        created.querySelector("#created-code").value = challenge.display_code;
        created.querySelector("#created-link").value = challenge.url;
        created.querySelector('[data-role="play"]').href = "/c/" + challenge.code;
        created.hidden = false;
        created.focus();
        F.announce(F.interpolate(_("Challenge %(code)s created."), { code: challenge.display_code }, true));
      }).catch(function (err) {
        error.textContent = F.errorMessage(err);
        error.hidden = false;
      }).then(function () {
        button.disabled = false;
      });
    });
  }

  var mine = document.querySelector("[data-my-challenges]");
  if (mine) {
    F.api("/api/me/challenges").then(function (list) {
      if (!list.length) return;
      mine.querySelector('[data-role="empty"]').hidden = true;
      var ul = mine.querySelector('[data-role="list"]');
      list.forEach(function (c) {
        var title = c.title || F.interpolate(_("Challenge %(code)s"), { code: c.display_code }, true);
        var facts = [c.display_code, F.interpolate(F.ngettext("%(n)s player", "%(n)s players", c.players), { n: F.fmt(c.players) }, true)];
        if (c.my_score !== null) facts.push(F.interpolate(_("my score %(score)s"), { score: F.fmt(c.my_score) }, true));
        if (c.created) facts.push(_("created by me"));
        facts.push(c.status === "open" ? _("open") : _("closed"));
        ul.appendChild(F.el("li", {}, [
          F.el("a", { href: "/c/" + c.code, text: title }),
          F.el("span", { class: "small muted", text: facts.join(" · ") }),
        ]));
      });
    }).catch(function () {});
  }
})();
