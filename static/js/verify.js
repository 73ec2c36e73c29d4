/* Verify a puzzle in the browser, trusting nothing but public facts: the API serves the
 * commitment, the revealed seed and the throws a game was served; this page computes SHA-256 of
 * the seed and every throw (HMAC-SHA-256, docs/fairness.md) through WebCrypto and shows its own verdict. */
(function () {
  "use strict";
  var F = window.Farkle;
  var _ = F.gettext;
  var form = document.querySelector("[data-verify]");
  if (!form) return;
  var result = document.querySelector('[data-role="result"]');
  var snippet = document.querySelector('[data-role="snippet"]');
  var snippetTemplate = snippet.textContent;
  var encoder = new TextEncoder();
  // A byte at or above 252 is skipped so that every face keeps exactly 42 of the 252 values.
  var UNBIASED_LIMIT = 252;

  function kind() {
    return form.querySelector('input[name="kind"]:checked').value;
  }

  function syncKind() {
    form.querySelectorAll("[data-kind]").forEach(function (field) {
      field.hidden = field.dataset.kind !== kind();
    });
  }

  /* ---- the checks, from public facts only ---- */

  function bytesFromHex(hex) {
    if (typeof hex !== "string" || !/^([0-9a-f]{2})+$/.test(hex)) return null;
    var bytes = new Uint8Array(hex.length / 2);
    for (var i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.substr(i * 2, 2), 16);
    return bytes;
  }

  function hexFromBuffer(buffer) {
    return Array.prototype.map.call(new Uint8Array(buffer), function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  }

  function sha256Hex(bytes) {
    return crypto.subtle.digest("SHA-256", bytes).then(hexFromBuffer);
  }

  function hmacKey(seed) {
    return crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  }

  /* The first `size` faces of throw `roll` of `turn`: HMAC-SHA-256(seed, "roll:t:k:block"),
   * bytes below 252, each b % 6 + 1, block after block. */
  function rollVector(key, turn, roll, size) {
    var faces = [];
    function block(n) {
      var message = encoder.encode("roll:" + turn + ":" + roll + ":" + n);
      return crypto.subtle.sign("HMAC", key, message).then(function (digest) {
        var bytes = new Uint8Array(digest);
        for (var i = 0; i < bytes.length && faces.length < size; i++) {
          if (bytes[i] < UNBIASED_LIMIT) faces.push((bytes[i] % 6) + 1);
        }
        return faces.length < size ? block(n + 1) : faces;
      });
    }
    return block(0);
  }

  /* The seed against its commitment: {ok, computed}, or ok false when the seed is no hex. */
  function checkSeed(seedHex, commitment) {
    var seed = bytesFromHex(seedHex);
    if (!seed) return Promise.resolve({ ok: false, computed: null, seed: null });
    return sha256Hex(seed).then(function (computed) {
      return { ok: computed === commitment, computed: computed, seed: seed };
    });
  }

  function sameFaces(a, b) {
    return a.length === b.length && a.every(function (face, i) { return face === b[i]; });
  }

  /* Every throw of a game recomputed from the seed: [{turn, roll, served, recomputed, ok}]. */
  function checkThrows(seed, throws) {
    return hmacKey(seed).then(function (key) {
      return Promise.all(throws.map(function (t) {
        var served = Array.isArray(t.dice) ? t.dice : [];
        return rollVector(key, t.turn, t.roll, served.length).then(function (recomputed) {
          return { turn: t.turn, roll: t.roll, served: served, recomputed: recomputed, ok: served.length > 0 && sameFaces(served, recomputed) };
        });
      }));
    });
  }

  /* ---- what the page shows ---- */

  function mark(ok, yes, no) {
    return F.el("span", { class: "check " + (ok ? "ok" : "bad"), text: ok ? "✓ " + yes : "✗ " + no });
  }

  function factList(rows) {
    var list = F.el("dl", { class: "facts" });
    rows.forEach(function (row) {
      list.appendChild(F.el("div", {}, [F.el("dt", { class: "small muted", text: row[0] }), F.el("dd", {}, [row[1]])]));
    });
    return list;
  }

  /* Issue 14: the house rules and the clock a challenge was created with; they change what may be
   * banked and scored, never the throws, which are checked below exactly as for any game. */
  function optionsText(options, par) {
    var parts = [];
    if (options.entry_minimum) parts.push(F.interpolate(_("entry minimum %(points)s"), { points: F.fmt(options.entry_minimum) }, true));
    if (options.farkle_penalty) parts.push(F.interpolate(_("three Farkles in a row cost %(points)s"), { points: F.fmt(options.farkle_penalty) }, true));
    if (options.turn_seconds) parts.push(F.interpolate(_("%(seconds)s seconds per turn"), { seconds: options.turn_seconds }, true));
    var text = parts.length ? parts.join(" · ") : _("none: the table applies exactly");
    return par ? text + " — " + F.interpolate(_("par %(par)s"), { par: F.fmt(par) }, true) : text;
  }

  function hex(text, role) {
    return F.el("span", { class: "hex", "data-role": role, text: text });
  }

  function throwLabel(t) {
    return F.interpolate(_("turn %(turn)s, throw %(roll)s"), { turn: t.turn, roll: t.roll }, true);
  }

  function throwsTable(checked) {
    var body = F.el("tbody");
    checked.forEach(function (t) {
      body.appendChild(F.el("tr", { "data-ok": t.ok ? "1" : "0", "data-turn": String(t.turn), "data-roll": String(t.roll) }, [
        F.el("td", { class: "num", text: t.turn + " · " + t.roll }),
        F.el("td", { "data-role": "served" }, [F.diceRow(t.served, "tiny")]),
        F.el("td", { "data-role": "recomputed" }, [
          F.diceRow(t.recomputed, "tiny"), " ",
          F.el("span", { class: "check " + (t.ok ? "ok" : "bad"), "aria-label": t.ok ? _("matches") : _("does not match"), text: t.ok ? "✓" : "✗" }),
        ]),
      ]));
    });
    return F.el("div", { class: "table-scroll" }, [F.el("table", { class: "data throws" }, [
      F.el("thead", {}, [F.el("tr", {}, [
        F.el("th", { scope: "col", text: _("Turn · throw") }),
        F.el("th", { scope: "col", text: _("Served") }),
        F.el("th", { scope: "col", text: _("Recomputed here") }),
      ])]),
      body,
    ])]);
  }

  function verdict(failures, passed) {
    var box = F.el("div", { class: "verdict " + (failures.length ? "bad" : "ok"), "data-role": "verdict" });
    if (failures.length) {
      box.setAttribute("role", "alert");
      box.appendChild(F.el("p", { class: "verdict-title", text: "✗ " + _("Verification failed in your browser:") }));
      box.appendChild(F.el("ul", {}, failures.map(function (failure) { return F.el("li", { text: failure }); })));
    } else {
      box.appendChild(F.el("p", { class: "verdict-title", text: "✓ " + passed }));
    }
    return box;
  }

  function render(data) {
    var failures = [];
    var puzzleSeed = data.seed ? checkSeed(data.seed, data.commitment) : Promise.resolve(null);
    var game = data.attempt;
    var gameSeed = game && game.seed ? checkSeed(game.seed, game.commitment) : Promise.resolve(null);
    return Promise.all([puzzleSeed, gameSeed]).then(function (seeds) {
      var puzzleCheck = seeds[0];
      var gameCheck = seeds[1];
      var throwsCheck = gameCheck && gameCheck.seed ? checkThrows(gameCheck.seed, game.throws) : Promise.resolve(null);
      return throwsCheck.then(function (checked) {
        result.textContent = "";
        var ref = data.puzzle.kind === "daily"
          ? F.interpolate(_("Daily of %(day)s"), { day: F.fmtDate(data.puzzle.date) }, true)
          : F.interpolate(_("Challenge %(code)s"), { code: data.puzzle.code }, true);
        result.appendChild(F.el("h2", { text: ref }));
        var verdictSlot = F.el("div");
        result.appendChild(verdictSlot);

        var rows = [[_("Commitment, published before it opened (SHA-256 of the seed)"), hex(data.commitment, "commitment")]];
        if (data.options) rows.push([_("Options, fixed when it was created"), F.el("span", { "data-role": "options", text: optionsText(data.options, data.par) })]);
        if (puzzleCheck) {
          rows.push([_("Revealed seed"), hex(data.seed, "seed")]);
          rows.push([_("SHA-256 of the seed, computed in your browser"), F.el("span", {}, [
            hex(puzzleCheck.computed || "—", "computed"), " ",
            mark(puzzleCheck.ok, _("matches the commitment"), _("does not match the commitment")),
          ])]);
          if (!puzzleCheck.ok) failures.push(_("The revealed seed does not match the commitment."));
        } else {
          rows.push([_("Seed"), F.el("span", { class: "muted", text: _("Not revealed yet: the puzzle is still open.") })]);
        }
        result.appendChild(factList(rows));
        snippet.textContent = snippetTemplate.replace("SEED", (game && game.seed) || data.seed || "SEED");

        if (game) {
          var own = game.dice_source === "own";
          result.appendChild(F.el("h3", { class: "game-title", text: F.interpolate(_("Game %(id)s by %(player)s: %(score)s points"), { id: game.id, player: game.player, score: F.fmt(game.score) }, true) }));
          result.appendChild(F.el("p", { class: "muted", "data-role": "dice-source", text: own
            ? _("A practice game played while the puzzle was open: its dice come from a seed of its own, committed to when it started.")
            : _("This game was played on the puzzle's dice.") }));
          if (own) {
            var ownRows = [[_("Commitment of the game's own seed"), hex(game.commitment, "game-commitment")]];
            if (gameCheck) {
              ownRows.push([_("The game's seed"), hex(game.seed, "game-seed")]);
              ownRows.push([_("SHA-256 of the game's seed, computed in your browser"), F.el("span", {}, [
                hex(gameCheck.computed || "—", "game-computed"), " ",
                mark(gameCheck.ok, _("matches the commitment"), _("does not match the commitment")),
              ])]);
              if (!gameCheck.ok) failures.push(_("The game's seed does not match its commitment."));
            }
            result.appendChild(factList(ownRows));
          } else if (game.commitment !== data.commitment || game.seed !== data.seed) {
            failures.push(_("The game's seed or commitment is not the puzzle's."));
          }
          if (game.timed_out_turns && game.timed_out_turns.length) {
            // Seed 001: a timeout throws no dice; it only ends the turn with nothing banked.
            result.appendChild(F.el("p", { class: "muted", "data-role": "timed-out", text: F.interpolate(_("Turns ended by the clock (no throw, their unbanked points lost): %(turns)s."), { turns: game.timed_out_turns.join(", ") }, true) }));
          }
          if (data.options && data.options.turn_seconds) {
            result.appendChild(F.el("p", { class: "muted", "data-role": "time-taken", text: F.interpolate(_("Time taken over its turns: %(seconds)s s."), { seconds: F.fmt(Math.round(game.time_taken)) }, true) }));
          }
          if (!gameCheck) {
            failures.push(_("The game's seed is not revealed: its throws cannot be checked yet."));
          } else if (checked) {
            checked.forEach(function (t) {
              if (!t.ok) failures.push(F.interpolate(_("The served dice of %(throw)s are not the ones the seed gives."), { throw: throwLabel(t) }, true));
            });
            result.appendChild(throwsTable(checked));
          }
        }
        var passed = game
          ? F.interpolate(F.ngettext(
              "Verified in your browser: the seed matches its commitment and the game's %(count)s throw comes from it.",
              "Verified in your browser: the seed matches its commitment and all %(count)s throws of the game come from it.",
              game.throws.length), { count: F.fmt(game.throws.length) }, true)
          : _("Verified in your browser: the revealed seed matches the commitment.");
        verdictSlot.appendChild(verdict(failures, passed));
        result.hidden = false;
        result.focus();
      });
    });
  }

  function verify() {
    var attempt = form.attempt.value.trim();
    var url = kind() === "daily"
      ? "/api/verify/daily/" + encodeURIComponent(form.date.value)
      : "/api/verify/challenges/" + encodeURIComponent(form.code.value.trim());
    if (attempt) url += "?attempt=" + encodeURIComponent(attempt);
    result.hidden = false;
    if (!window.crypto || !window.crypto.subtle) {
      // WebCrypto exists only on secure pages (https, or this machine).
      result.textContent = "";
      result.appendChild(F.el("p", { class: "error-text", role: "alert", text: _("This browser cannot compute SHA-256 on this page: open it over https.") }));
      return;
    }
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
