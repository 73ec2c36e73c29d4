/* Verify a closed puzzle through the API: the revealed seed against the commitment, and the
 * throws of one game recomputed from the seed. */
(function () {
  "use strict";
  var F = window.Farkle;
  var _ = F.gettext;
  var form = document.querySelector("[data-verify]");
  if (!form) return;
  var result = document.querySelector('[data-role="result"]');
  var snippet = document.querySelector('[data-role="snippet"]');
  var snippetTemplate = snippet.textContent;

  function kind() {
    return form.querySelector('input[name="kind"]:checked').value;
  }

  function syncKind() {
    form.querySelectorAll("[data-kind]").forEach(function (field) {
      field.hidden = field.dataset.kind !== kind();
    });
  }

  function check(ok) {
    return F.el("span", { class: "check " + (ok ? "ok" : "bad"), text: ok ? "✓ " + _("matches") : "✗ " + _("does not match") });
  }

  function render(data) {
    result.textContent = "";
    var ref = data.puzzle.kind === "daily"
      ? F.interpolate(_("Daily of %(day)s"), { day: F.fmtDate(data.puzzle.date) }, true)
      : F.interpolate(_("Challenge %(code)s"), { code: data.puzzle.code }, true);
    result.appendChild(F.el("h2", { text: ref }));
    var facts = F.el("dl", { class: "stack" });
    var fact = function (term, value) {
      facts.appendChild(F.el("div", {}, [F.el("dt", { class: "small muted", text: term }), F.el("dd", { style: "margin:0" }, [value])]));
    };
    fact(_("Commitment, published in advance (SHA-256 of the seed)"), F.el("span", { class: "hex", text: data.commitment }));
    fact(_("Revealed seed"), F.el("span", { class: "hex", "data-role": "seed", text: data.seed }));
    fact(_("SHA-256 of the seed"), check(data.matches));
    result.appendChild(facts);
    snippet.textContent = snippetTemplate.replace("SEED", data.seed);

    var game = data.attempt;
    if (game) {
      result.appendChild(F.el("h3", { style: "margin-top:18px", text: F.interpolate(_("Game %(id)s by %(player)s: %(score)s points"), { id: game.id, player: game.player, score: F.fmt(game.score) }, true) }));
      result.appendChild(F.el("p", {}, [
        game.all_match ? _("Every throw matches the dice recomputed from the seed.") : _("Some throws do not match the seed!"),
        " ", check(game.all_match),
      ]));
      var body = F.el("tbody");
      game.throws.forEach(function (t) {
        body.appendChild(F.el("tr", {}, [
          F.el("td", { class: "num", text: String(t.turn) }),
          F.el("td", { class: "num", text: String(t.roll) }),
          F.el("td", {}, [F.diceRow(t.served, "tiny")]),
          F.el("td", {}, [F.diceRow(t.recomputed, "tiny")]),
          F.el("td", {}, [F.el("span", { class: "check " + (t.match ? "ok" : "bad"), text: t.match ? "✓" : "✗" })]),
        ]));
      });
      var table = F.el("table", { class: "data" }, [
        F.el("thead", {}, [F.el("tr", {}, [
          F.el("th", { scope: "col", text: _("Turn") }),
          F.el("th", { scope: "col", text: _("Throw") }),
          F.el("th", { scope: "col", text: _("Served") }),
          F.el("th", { scope: "col", text: _("Recomputed") }),
          F.el("th", { scope: "col", text: "" }),
        ])]),
        body,
      ]);
      result.appendChild(F.el("div", { class: "table-scroll" }, [table]));
    }
    result.hidden = false;
    result.focus();
  }

  function verify() {
    var attempt = form.attempt.value.trim();
    var url = kind() === "daily"
      ? "/api/verify/daily/" + encodeURIComponent(form.date.value)
      : "/api/verify/challenges/" + encodeURIComponent(form.code.value.trim());
    if (attempt) url += "?attempt=" + encodeURIComponent(attempt);
    result.hidden = false;
    result.textContent = _("Checking…");
    F.api(url).then(render).catch(function (err) {
      result.textContent = "";
      result.appendChild(F.el("p", { class: "error-text", role: "alert", text: F.errorMessage(err) }));
    });
  }

  form.querySelectorAll('input[name="kind"]').forEach(function (r) { r.addEventListener("change", syncKind); });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    verify();
  });
  syncKind();
  var params = new URLSearchParams(window.location.search);
  if (params.get("date") || params.get("code")) verify();
})();
