/* The game board's view-model: a pure function from what the API said (the puzzle, the attempt,
 * the events of the last action, the leaderboard) and what the player holds (the selection) to a
 * plain object the renderer writes out. No DOM, no clock, no storage, no text: texts are ids with
 * their numbers, which play/view.js words in the page's language.
 *
 * Every rule comes from the API: a Farkle, hot dice and a bank from the action's `events`, what a
 * selection scores and whether it may bank from `keep_options`, the number of turns from the
 * puzzle's `turns_total`. */
(function () {
  "use strict";

  function text(id, args) {
    return { id: id, args: args || {} };
  }

  function turnOf(attempt, number) {
    for (var i = 0; i < attempt.turns.length; i++) if (attempt.turns[i].turn === number) return attempt.turns[i];
    return { turn: number, throws: [], points: 0, farkle: false, done: false };
  }

  function sameSet(a, b) {
    return a.length === b.length && a.slice().sort().join(",") === b.slice().sort().join(",");
  }

  /* The keep option the selection makes, or null when it makes none. */
  function option(attempt, selection) {
    if (!attempt || attempt.state !== "awaiting_keep" || !selection.length) return null;
    for (var i = 0; i < attempt.keep_options.length; i++) {
      if (sameSet(attempt.keep_options[i].dice, selection)) return attempt.keep_options[i];
    }
    return null;
  }

  /* A saved selection (from storage: anything) back for this very throw, or nothing. */
  function restoredSelection(attempt, saved) {
    // Only for the throw it was made on: any move since makes it meaningless.
    if (!attempt || !saved || saved.step !== attempt.step || attempt.state !== "awaiting_keep") return [];
    return (Array.isArray(saved.dice) ? saved.dice : []).filter(function (p, i, all) {
      return typeof p === "number" && p >= 0 && p < attempt.dice.length && all.indexOf(p) === i;
    });
  }

  function playable(kind, puzzle) {
    if (!puzzle) return false;
    if (kind === "daily") return puzzle.status === "open" || puzzle.status === "closed";
    return puzzle.status === "open";
  }

  function nextIsOfficial(kind, puzzle) {
    if (!puzzle || (kind === "daily" && puzzle.status !== "open")) return false;
    return !puzzle.my_attempts.some(function (a) { return a.official; });
  }

  /* What the last action's events mean for the board: the throw that Farkled, hot dice, a bank,
   * a pair thrown again, the end. */
  function happenings(events) {
    var found = { farkle: null, timedOut: null, hot: false, banked: null, rethrow: null, rolled: null, finished: null };
    var thrown = null;
    (events || []).forEach(function (e) {
      if (e.kind === "rolled") { thrown = e; found.rolled = e; }
      else if (e.kind === "farkle") found.farkle = { turn: e.turn, dice: thrown ? thrown.dice : [], lost: e.points || 0 };
      else if (e.kind === "hot_dice") found.hot = true;
      else if (e.kind === "timed_out") found.timedOut = { turn: e.turn, lost: e.points || 0 };
      else if (e.kind === "banked") found.banked = { turn: e.turn, points: e.points, score: e.score };
      else if (e.kind === "rethrow") found.rethrow = { turn: e.turn, dice: e.dice };
      else if (e.kind === "game_finished") found.finished = { score: e.score };
    });
    return found;
  }

  /* The throw that lost the previous turn, while the next one waits for its first roll: from the
   * events just received, or (after a reload, a resync) from the turn's record. */
  function farkleOnShow(attempt, seen) {
    if (!attempt || attempt.state !== "awaiting_roll" || attempt.turn < 2) return null;
    if (turnOf(attempt, attempt.turn).throws.length) return null;
    if (seen.farkle && seen.farkle.turn === attempt.turn - 1) return seen.farkle;
    var last = turnOf(attempt, attempt.turn - 1);
    if (!last.farkle || !last.throws.length) return null;
    return { turn: last.turn, dice: last.throws[last.throws.length - 1].dice, lost: null };
  }

  /* The pair to throw again (seed 004), as the API marked the current turn's last throw. */
  function rethrown(attempt) {
    if (!attempt || attempt.state !== "awaiting_roll") return null;
    var turn = turnOf(attempt, attempt.turn);
    var last = turn.throws[turn.throws.length - 1];
    return last && last.rethrow ? last : null;
  }

  function banner(seen, step) {
    // A turn lost to the clock is said as plainly as a Farkle (issue 40), and stays until the
    // next roll.
    if (seen.timedOut) {
      return { type: "farkle", key: step, persist: true, word: text("timeout_word"),
        sub: seen.timedOut.lost ? text("points_lost", { points: seen.timedOut.lost }) : text("turn_lost") };
    }
    if (seen.farkle) {
      return { type: "farkle", key: step, persist: true, word: text("farkle_word"),
        sub: seen.farkle.lost ? text("points_lost", { points: seen.farkle.lost }) : text("nothing_scores") };
    }
    if (seen.hot) return { type: "hot", key: step, persist: false, word: text("hot_word"), sub: text("hot_sub") };
    if (seen.banked) {
      return { type: "bank", key: step, persist: false, word: text("bank_word", { points: seen.banked.points }), sub: text("bank_sub") };
    }
    return null;
  }

  /* What a screen reader hears after the action, in the order it happened. */
  function announcement(attempt, events) {
    var parts = [];
    var assertive = false;
    var thrown = null;
    (events || []).forEach(function (e, i) {
      var next = events[i + 1];
      if (e.kind === "rolled") {
        thrown = e;
        if (!next || (next.kind !== "farkle" && next.kind !== "rethrow")) {
          parts.push(text("throw", { turn: e.turn, roll: e.roll, dice: e.dice }));
        }
      } else if (e.kind === "hot_dice") parts.push(text("hot_said"));
      else if (e.kind === "timed_out") {
        parts.push(text("timeout_said", { turn: e.turn }));
        assertive = true;
      }
      else if (e.kind === "farkle") {
        parts.push(text("farkle_said", { turn: e.turn, dice: thrown ? thrown.dice : [] }));
        if (e.points) parts.push(text("points_lost_said", { points: e.points }));
        assertive = true;
      } else if (e.kind === "banked") parts.push(text("banked_said", { points: e.points, score: e.score }));
      else if (e.kind === "rethrow") parts.push(text("rethrow"));
      else if (e.kind === "game_finished") parts.push(text("game_over_said", { score: e.score }));
    });
    return { parts: parts, assertive: assertive };
  }

  var SQUARES = { farkle: "🟥", low: "🟨", mid: "🟩", high: "🟦", none: "⬜" };

  function square(turn) {
    if (!turn || !turn.done) return SQUARES.none;
    if (turn.farkle || turn.timed_out) return SQUARES.farkle;
    if (turn.points >= 1000) return SQUARES.high;
    if (turn.points >= 500) return SQUARES.mid;
    if (turn.points > 0) return SQUARES.low;
    return SQUARES.none;
  }

  function strip(attempt, total) {
    var squares = "";
    for (var n = 1; n <= total; n++) squares += square(turnOf(attempt, n));
    return squares;
  }

  function rankLine(attempt, board) {
    if (!attempt.official) return text("practice_unranked_end");
    if (board === undefined) return text("ranking");
    if (board === null) return null;
    var me = board.me && board.me.attempt === attempt.id ? board.me : null;
    if (me) {
      return text("rank", { rank: me.rank, players: board.players, percentile: me.percentile === undefined ? null : me.percentile });
    }
    return attempt.held ? null : text("rank_later");
  }

  function end(input, total) {
    var attempt = input.attempt;
    var config = input.config;
    var puzzle = input.puzzle;
    var board = input.board;
    var where = config.kind === "daily" ? "date=" + config.date : "code=" + config.code;
    return {
      key: attempt.id,
      official: attempt.official,
      score: attempt.score,
      par: config.par ? { par: config.par, diff: attempt.score - config.par } : null,
      closedEarly: !!attempt.finalised_at_close,
      held: attempt.held ? attempt.held_note : null,
      rank: rankLine(attempt, board),
      // A board whose scores are hidden from this player (docs/play.md) has no distribution, and
      // one that nobody is ranked on has nothing to draw. A practice score is not among the
      // bars: it is marked as practice, never as "You" on a bar it does not count in.
      histogram: board && board.distribution && board.players ? { buckets: board.distribution.histogram, mine: attempt.score, par: config.par,
        practice: !attempt.official, players: board.players, median: board.distribution.median, best: board.distribution.best } : null,
      strip: strip(attempt, total),
      share: {
        label: config.shareLabel, url: config.shareUrl, challenge: config.kind === "challenge",
        practice: !attempt.official, score: attempt.score, squares: strip(attempt, total),
        status: input.share || null,
      },
      boardLink: config.kind === "daily" && !config.archive && !config.boardOnPage ? "/leaderboard" : "#board-title",
      // Practice on an open puzzle plays fresh dice of its own; archive play keeps the day's.
      again: playable(config.kind, puzzle) ? (puzzle.status === "closed" ? "again_same" : "again_new") : null,
      verifyHref: attempt.dice_source === "own" ? "/verify?" + where + "&attempt=" + attempt.id : null,
    };
  }

  function selectionLine(input, chosen, refused, seen, farkled) {
    var attempt = input.attempt;
    if (!input.puzzle) return text("loading");
    if (!attempt) return playable(input.config.kind, input.puzzle) ? text("press_roll") : null;
    if (attempt.state === "finished") return null;
    if (attempt.state === "awaiting_roll") {
      if (farkled) return text("farkle_next", { turn: farkled.turn, next: attempt.turn });
      if (rethrown(attempt)) return text("rethrow");
      return text("roll_count", { turn: attempt.turn, count: attempt.in_hand });
    }
    if (chosen) {
      return text("keep_for", { points: chosen.score, total: attempt.turn_points + chosen.score, left: chosen.dice_left, hot: !!chosen.hot_dice,
        needs: chosen.bank_needs || null });
    }
    if (refused) return text("refused");
    if (seen.hot && seen.rolled) return text("hot_select");
    return text("select");
  }

  function statusLine(input, official) {
    var attempt = input.attempt;
    if (!input.puzzle) return null;
    if (attempt && attempt.state === "finished") return text("game_over");
    if (!attempt && !playable(input.config.kind, input.puzzle)) {
      return input.config.kind === "daily" ? text("day_closing") : text("challenge_closed");
    }
    if (!attempt) return official ? text("first_counts") : text("practice_unranked");
    if (official) return text("counts");
    return attempt.retry_of ? text("retry_unranked") : text("practice_unranked");
  }

  function scorecard(attempt, total) {
    var rows = [];
    for (var n = 1; n <= total; n++) {
      var turn = attempt ? turnOf(attempt, n) : null;
      var current = !!attempt && attempt.state !== "finished" && attempt.turn === n;
      var row = { n: n, current: current, kind: current ? "current" : "", points: null };
      if (turn && turn.done) {
        // A turn lost to the clock is a loss like a Farkle, never a bank of 0.
        row.kind = turn.farkle ? "farkle" : turn.timed_out ? "timeout" : "banked";
        row.points = row.kind === "banked" ? turn.points : null;
      } else if (current) {
        row.points = attempt.turn_points;
      }
      rows.push(row);
    }
    return rows;
  }

  function kept(attempt) {
    if (!attempt || attempt.state === "finished") return [];
    var groups = [];
    turnOf(attempt, attempt.turn).throws.forEach(function (t) {
      if (!t.kept.length) return;
      groups.push({ faces: t.kept.map(function (p) { return t.dice[p]; }), points: t.points, hot: !!t.hot_dice });
    });
    return groups;
  }

  function dice(input, farkled, refused) {
    var attempt = input.attempt;
    var selection = input.selection || [];
    if (attempt && attempt.state === "awaiting_keep") {
      return {
        choose: true, farkled: false, refused: refused,
        // The renderer rebuilds the dice only for a new throw, and rolls them then.
        key: attempt.id + ":" + attempt.step,
        rolled: (input.events || []).some(function (e) { return e.kind === "rolled"; }),
        faces: attempt.dice.map(function (face, position) {
          return { face: face, position: position, pressed: selection.indexOf(position) >= 0 };
        }),
      };
    }
    var shown = { choose: false, farkled: false, refused: false, rolled: false, faces: [], blank: 0 };
    if (farkled) {
      shown.farkled = true;
      shown.faces = farkled.dice.slice();
    } else if (attempt && attempt.state === "finished") {
      var last = attempt.turns[attempt.turns.length - 1];
      var lastThrow = last && last.throws[last.throws.length - 1];
      if (lastThrow) {
        shown.farkled = !!last.farkle;
        shown.faces = lastThrow.dice.slice();
      }
    } else if (rethrown(attempt)) {
      shown.faces = rethrown(attempt).dice.slice();
    } else {
      shown.blank = attempt ? attempt.in_hand : input.config.handSize;
    }
    shown.key = [attempt ? attempt.id + ":" + attempt.step : "none", shown.farkled, shown.faces.join(""), shown.blank].join("|");
    return shown;
  }

  /* The whole board as plain data. `input`: {config, puzzle, attempt, selection, busy, events,
   * board (undefined: not asked yet, null: failed), share}. */
  function view(input) {
    var puzzle = input.puzzle || null;
    var attempt = input.attempt || null;
    var config = input.config;
    var selection = input.selection || [];
    var busy = !!input.busy;
    var total = puzzle && puzzle.turns_total ? puzzle.turns_total : 0;
    var seen = happenings(input.events);
    var canPlay = playable(config.kind, puzzle);
    var state = attempt ? attempt.state : !puzzle ? "loading" : canPlay ? "new" : "unavailable";
    var awaitingKeep = state === "awaiting_keep";
    var finished = state === "finished";
    var official = attempt ? attempt.official : nextIsOfficial(config.kind, puzzle);
    var chosen = option(attempt, selection);
    var refused = awaitingKeep && selection.length > 0 && !chosen;
    var farkled = farkleOnShow(attempt, seen);

    var risk = null;
    if (attempt && attempt.state === "awaiting_roll") risk = attempt.farkle_risk;
    if (chosen) risk = chosen.farkle_risk;
    if (risk === undefined) risk = null;

    var canAct = !busy && !!puzzle;
    return {
      state: state,
      step: attempt ? String(attempt.step) : "",
      attempt: attempt ? String(attempt.id) : "",
      busy: busy,
      finished: finished,
      mode: puzzle ? { official: official } : null,
      status: statusLine(input, official),
      score: attempt ? attempt.score : 0,
      turn: attempt ? (finished ? total : attempt.turn) : 1,
      turnsTotal: total,
      turnPoints: attempt ? attempt.turn_points : 0,
      risk: risk,
      riskHigh: risk !== null && risk >= 0.4,
      kept: kept(attempt),
      dice: dice(input, farkled, refused),
      selection: { text: selectionLine(input, chosen, refused, seen, farkled), tone: chosen ? "ok" : refused ? "bad" : "" },
      chosen: chosen,
      buttons: {
        roll: {
          hidden: awaitingKeep || finished || (!attempt && !!puzzle && !canPlay),
          disabled: !canAct || (!attempt && !canPlay) || (!!attempt && attempt.state !== "awaiting_roll"),
        },
        keepRoll: { hidden: !awaitingKeep, disabled: !canAct || !chosen },
        keepBank: { hidden: !awaitingKeep, disabled: !canAct || !chosen || !chosen.can_bank },
      },
      scorecard: scorecard(attempt, total),
      banner: banner(seen, attempt ? attempt.id + ":" + attempt.step : ""),
      announcement: announcement(attempt, input.events),
      end: finished ? end(input, total) : null,
    };
  }

  window.FarklePlay = window.FarklePlay || {};
  window.FarklePlay.model = {
    view: view,
    option: option,
    restoredSelection: restoredSelection,
    playable: playable,
  };
})();
