/* The replay page: one throw at a time, stepped with the buttons or the ← and → keys. Without
 * this script every throw is listed, one under the other. */
(function () {
  "use strict";
  var F = window.Farkle;
  var _ = F.gettext;

  function Replay(node) {
    var self = this;
    this.node = node;
    this.steps = Array.prototype.slice.call(node.querySelectorAll("[data-step]"));
    this.nav = node.querySelector('[data-role="nav"]');
    this.position = node.querySelector('[data-role="position"]');
    this.prev = node.querySelector('[data-action="prev"]');
    this.next = node.querySelector('[data-action="next"]');
    if (!this.steps.length) return;
    this.nav.hidden = false;
    node.querySelector('[data-role="keys"]').hidden = false;
    var start = /^#step-(\d+)$/.exec(window.location.hash);
    this.index = start ? Math.min(this.steps.length, parseInt(start[1], 10)) - 1 : 0;
    this.prev.addEventListener("click", function () { self.go(self.index - 1); });
    this.next.addEventListener("click", function () { self.go(self.index + 1); });
    document.addEventListener("keydown", function (event) {
      var tag = (event.target && event.target.tagName) || "";
      if (event.altKey || event.ctrlKey || event.metaKey || /INPUT|TEXTAREA|SELECT/.test(tag)) return;
      if (event.key === "ArrowLeft") { event.preventDefault(); self.go(self.index - 1); }
      if (event.key === "ArrowRight") { event.preventDefault(); self.go(self.index + 1); }
    });
    this.go(this.index);
  }

  Replay.prototype.go = function (index) {
    if (index < 0 || index >= this.steps.length) return;
    this.index = index;
    this.steps.forEach(function (step, i) { step.hidden = i !== index; });
    this.position.textContent = F.interpolate(_("Throw %(n)s of %(total)s"), { n: index + 1, total: this.steps.length }, true);
    this.prev.disabled = index === 0;
    this.next.disabled = index === this.steps.length - 1;
    window.history.replaceState(null, "", "#step-" + (index + 1));
  };

  /* Retry from a decision (issue 40): the server starts a practice game at that throw, on the
   * same dice, and the game's own page plays it (with the coach). The buttons are in the page
   * only where a retry may start; without this script they stay hidden. */
  function retries(node) {
    var buttons = node.querySelectorAll('[data-action="retry"]');
    if (!buttons.length) return;
    node.querySelectorAll('[data-role="retry-row"], [data-role="retry-note"]').forEach(function (row) { row.hidden = false; });
    Array.prototype.forEach.call(buttons, function (button) {
      button.addEventListener("click", function () {
        var error = button.parentNode.querySelector('[data-role="retry-error"]');
        error.hidden = true;
        Array.prototype.forEach.call(buttons, function (b) { b.disabled = true; });
        F.api("/api/attempts/" + node.dataset.attempt + "/retries", {
          method: "POST",
          body: { decision: parseInt(button.dataset.decision, 10) },
        }).then(function (retry) {
          var puzzle = retry.puzzle;
          var page = puzzle.kind === "daily" ? "/daily/" + puzzle.date : "/c/" + puzzle.code;
          window.location.assign(page + "#attempt-" + retry.id);
        }).catch(function (err) {
          Array.prototype.forEach.call(buttons, function (b) { b.disabled = false; });
          error.textContent = F.errorMessage(err);
          error.hidden = false;
        });
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var node = document.querySelector("[data-replay]");
    if (!node) return;
    new Replay(node);
    retries(node);
  });
})();
