/* The coach (issue 12): a switch on practice and archive games, never on a game that counts.
 * Before each decision it asks /api/attempts/<id>/coach and shows the expected points of
 * rolling and of banking, and marks the best keep's dice. It watches the board's data-state and
 * data-step (written by play/view.js) and changes nothing else of the game. */
(function () {
  "use strict";
  var F = window.Farkle;
  var _ = F.gettext;
  var say = function (format, args) { return F.interpolate(format, args, true); };
  var STORE = "farkle:coach";

  function Coach(root) {
    var self = this;
    this.root = root;
    this.box = root.querySelector('[data-role="coach"]');
    this.toggle = root.querySelector('[data-role="coach-switch"]');
    this.advice = root.querySelector('[data-role="coach-advice"]');
    this.asked = null;
    try { this.toggle.checked = window.localStorage.getItem(STORE) === "1"; } catch (e) { /* private mode */ }
    this.toggle.addEventListener("change", function () {
      try { window.localStorage.setItem(STORE, self.toggle.checked ? "1" : "0"); } catch (e) { /* private mode */ }
      self.asked = null;
      self.update();
    });
    new MutationObserver(function () { self.update(); }).observe(root, {
      attributes: true, attributeFilter: ["data-state", "data-step", "data-attempt"],
    });
    // The dice are redrawn for a new throw: mark the best keep again on the new buttons.
    new MutationObserver(function () { self.mark(); }).observe(root.querySelector('[data-role="dice"]'), { childList: true });
    this.update();
  }

  /* Practice only: the board's mode badge says which kind of game is on the table. */
  Coach.prototype.practice = function () {
    var mode = this.root.querySelector('[data-role="mode"]');
    return !!mode && !mode.hidden && mode.classList.contains("practice");
  };

  Coach.prototype.update = function () {
    var root = this.root;
    var state = root.dataset.state;
    var playing = state === "awaiting_roll" || state === "awaiting_keep";
    this.box.hidden = !(this.practice() && root.dataset.attempt && playing);
    var on = !this.box.hidden && this.toggle.checked;
    this.advice.hidden = !on;
    if (!on) {
      this.best = null;
      this.mark();
      return;
    }
    var key = root.dataset.attempt + ":" + root.dataset.step;
    if (this.asked === key) return;
    this.asked = key;
    var self = this;
    F.api("/api/attempts/" + root.dataset.attempt + "/coach").then(function (data) {
      if (self.asked !== key) return;
      self.show(data.advice);
    }).catch(function (err) {
      if (self.asked === key) self.advice.textContent = F.errorMessage(err);
    });
  };

  Coach.prototype.show = function (advice) {
    this.best = advice && advice.options.length ? advice.dice : null;
    this.mark();
    if (!advice) {
      this.advice.textContent = "";
      return;
    }
    var worth = function (n) { return F.fmt(Math.round(n)); };
    if (!advice.options.length) {
      this.advice.textContent = say(_("Coach: rolling is worth %(roll)s expected points for this turn."), { roll: worth(advice.roll) });
      return;
    }
    var best = advice.options.filter(function (o) { return o.best; })[0];
    // The dice by their faces, as marked on the board (issue 40): "dice 1, 3" read like faces.
    var root = this.root;
    var faces = best.dice.map(function (p) {
      var button = root.querySelector('[data-role="dice"] .die-btn[data-pos="' + p + '"]');
      return button ? button.dataset.face : "?";
    }).join(", ");
    var line = say(_("Coach: best keep, the marked dice (%(faces)s) for %(points)s, then %(then)s."), {
      faces: faces, points: F.fmt(best.points), then: best.then === "bank" ? _("bank") : _("roll"),
    });
    line += " " + say(_("Rolling on: %(roll)s expected."), { roll: worth(best.roll) });
    line += " " + (best.bank === null
      ? _("Banking: not allowed here.")
      : say(_("Banking: %(bank)s."), { bank: worth(best.bank) }));
    this.advice.textContent = line;
  };

  Coach.prototype.mark = function () {
    var best = this.best || [];
    this.root.querySelectorAll('[data-role="dice"] .die-btn').forEach(function (button) {
      button.classList.toggle("coach-best", best.indexOf(parseInt(button.dataset.pos, 10)) >= 0);
    });
  };

  document.addEventListener("DOMContentLoaded", function () {
    var root = document.querySelector("[data-play]");
    if (root && root.querySelector('[data-role="coach"]')) new Coach(root);
  });
})();
