"""The ten-turn game as an immutable value: apply an action, get the next game.

The throws come from the puzzle's seed (docs/fairness.md): throw ``k`` of turn ``t`` with ``n``
dice in hand shows the first ``n`` faces of ``roll_vector(seed, t, k)``. A game is therefore fully
determined by its seed, its table and its list of actions, and replaying the list reproduces it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import FarkleError
from .fair import throw_faces
from .tables import DEFAULT_TABLE, NO_HOUSE_RULES, HouseRules, Table, get_table
from .turn import FARKLE, RETHROW, KeepOption, Sets, keep_option, keep_options, throw_kind

TURNS = 10

AWAITING_ROLL = "awaiting_roll"
AWAITING_KEEP = "awaiting_keep"
FINISHED = "finished"


def _evolve(value, **changes):
    """``dataclasses.replace`` for the engine's frozen records, without re-running ``__init__``.

    Replaying a stored game rebuilds its records about a hundred times, on every game action
    the site serves (issue 15); copying the attributes is several times faster than
    ``replace``, and the records have no ``__post_init__`` whose checks it would skip.
    """
    new = object.__new__(type(value))
    attributes = new.__dict__
    attributes.update(value.__dict__)
    for name in changes:
        if name not in attributes:
            raise TypeError(f"{type(value).__name__} has no field {name!r}")
    attributes.update(changes)
    return new


@dataclass(frozen=True)
class Roll:
    """Throw the dice in hand (the first throw of a turn)."""

    def to_dict(self) -> dict[str, Any]:
        return {"action": "roll"}


@dataclass(frozen=True)
class Keep:
    """Set aside the dice at ``positions`` of the current throw, then roll again or bank."""

    positions: tuple[int, ...]
    then: str

    def to_dict(self) -> dict[str, Any]:
        return {"action": "keep", "dice": list(self.positions), "then": self.then}


@dataclass(frozen=True)
class TimeOut:
    """The turn's clock ran out (a timed challenge, seed 001): the turn ends with nothing banked.

    Never sent by a player: the server stores it, with its turn, when an action or a read comes
    after the turn's time, so that a replay of the stored actions reproduces the game exactly.
    """

    turn: int

    def to_dict(self) -> dict[str, Any]:
        return {"action": "timeout", "turn": self.turn}


Action = Roll | Keep | TimeOut


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """Parse a stored or submitted action; FarkleError for anything malformed."""
    if not isinstance(data, Mapping):
        raise FarkleError("invalid_action", "An action is an object.")
    kind = data.get("action")
    if kind == "roll":
        return Roll()
    if kind == "keep":
        positions = data.get("dice")
        if not isinstance(positions, list | tuple) or not all(
            isinstance(p, int) and not isinstance(p, bool) for p in positions
        ):
            raise FarkleError("invalid_dice", "`dice` is a list of positions in the throw.")
        then = data.get("then")
        if then not in ("roll", "bank"):
            raise FarkleError("invalid_action", "`then` is either 'roll' or 'bank'.")
        return Keep(positions=tuple(positions), then=then)
    if kind == "timeout":
        turn = data.get("turn")
        if not isinstance(turn, int) or isinstance(turn, bool):
            raise FarkleError("invalid_action", "A timeout names its `turn`.")
        return TimeOut(turn=turn)
    raise FarkleError("invalid_action", "`action` is either 'roll' or 'keep'.")


@dataclass(frozen=True)
class Throw:
    """One throw of a turn, with the hand it was thrown from and what was kept from it."""

    dice: tuple[int, ...]
    # Sets of the hand the dice were thrown into (seed 003); the hand's size is ``len(dice)``.
    sets: Sets = ()
    keep: KeepOption | None = None
    farkle: bool = False
    # Seed 004: a non-scoring pair, thrown again with the turn's points kept.
    rethrow: bool = False

    @property
    def kept(self) -> tuple[int, ...]:
        """Positions kept from this throw (none yet, or a Farkle)."""
        return () if self.keep is None else self.keep.positions

    @property
    def points(self) -> int:
        """Points the keep of this throw scored."""
        return 0 if self.keep is None else self.keep.points

    @property
    def hot_dice(self) -> bool:
        """Every die of the hand scored with this keep."""
        return self.keep is not None and self.keep.hot_dice


@dataclass(frozen=True)
class Event:
    """What an action caused, in order: ids and numbers for a client to show, no text.

    ``kind`` is one of ``rolled`` (``dice`` thrown as throw ``roll`` of ``turn``), ``kept``
    (``positions`` for ``points``), ``farkle`` (the turn ends, ``points`` at risk lost),
    ``rethrow`` (seed 004: the pair in ``dice`` is thrown again, points kept), ``hot_dice``
    (every die scored: ``in_hand`` dice come back for the next throw), ``banked`` (``points``
    added, ``score`` banked in all), ``penalty`` (house rule: the third Farkle in a row took
    ``points`` from the score, leaving ``score``), ``timed_out`` (seed 001: the turn's clock ran
    out, ``points`` at risk lost), ``turn_started`` and ``game_finished`` (final ``score``).
    """

    kind: str
    turn: int
    roll: int | None = None
    dice: tuple[int, ...] | None = None
    positions: tuple[int, ...] | None = None
    points: int | None = None
    score: int | None = None
    in_hand: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The event as JSON, without the fields its kind does not use."""
        found: dict[str, Any] = {"kind": self.kind, "turn": self.turn}
        for name in ("roll", "dice", "positions", "points", "score", "in_hand"):
            value = getattr(self, name)
            if value is not None:
                found[name] = list(value) if isinstance(value, tuple) else value
        return found


_BLANK_EVENT = Event("", 0)


@dataclass(frozen=True)
class Turn:
    """A turn: its throws and the points it banked (0 after a Farkle)."""

    number: int
    throws: tuple[Throw, ...] = ()
    points: int = 0
    farkle: bool = False
    done: bool = False
    # House rule: points the third Farkle in a row took from the banked score.
    penalty: int = 0
    # Seed 001: the turn's clock ran out; nothing was banked.
    timed_out: bool = False


@dataclass(frozen=True)
class Game:
    """A ten-turn game on one seed and one table."""

    seed: bytes
    table: Table
    state: str = AWAITING_ROLL
    step: int = 0
    turn: int = 1
    roll: int = 0
    in_hand: int = 6
    turn_points: int = 0
    score: int = 0
    turns: tuple[Turn, ...] = (Turn(number=1),)
    # Sets kept in the current hand, which seed 003's tables let newly thrown dice extend.
    sets: Sets = ()
    # What the action that made this game caused (none for a new game), for clients to show.
    # None only inside ``apply``, while a step that records no events is being built.
    events: tuple[Event, ...] = ()
    # Challenge-only house rules (none for the daily).
    rules: HouseRules = NO_HOUSE_RULES
    # Whether the player has banked at least the entry minimum once (always, without one).
    opened: bool = True
    # Farkles in a row counting towards the house penalty (seed 004's crosses).
    farkles_in_row: int = 0

    @classmethod
    def new(
        cls, seed: bytes, table: str | Table = DEFAULT_TABLE, rules: HouseRules = NO_HOUSE_RULES
    ) -> Game:
        """A game at the start of its first turn."""
        t = get_table(table)
        return cls(seed=seed, table=t, in_hand=t.dice, rules=rules, opened=not rules.entry_minimum)

    @classmethod
    def replay(
        cls,
        seed: bytes,
        actions: Iterable[Mapping[str, Any]],
        table: str | Table = DEFAULT_TABLE,
        rules: HouseRules = NO_HOUSE_RULES,
    ) -> Game:
        """The game reached by applying stored actions, in order, to a new game."""
        game = cls.new(seed, table, rules)
        actions = list(actions)
        for data in actions[:-1]:
            game = game.apply(action_from_dict(data), events=False)
        # The events of the last action only: they are the replayed game's.
        return game.apply(action_from_dict(actions[-1])) if actions else game

    @property
    def dice(self) -> tuple[int, ...]:
        """The current throw, waiting for a keep (empty otherwise)."""
        if self.state != AWAITING_KEEP:
            return ()
        return self.turns[-1].throws[-1].dice

    @property
    def finished(self) -> bool:
        return self.state == FINISHED

    def keep_options(self) -> tuple[KeepOption, ...]:
        """Every valid keep of the current throw, with what follows each."""
        if not self.dice:
            return ()
        options = keep_options(self.dice, self.table, self.sets)
        if self.opened:
            return options
        # Entry minimum (seed 004: «Avant d'ouvrir, un joueur ne peut pas valider moins de 500
        # points»): a keep that leaves the turn below it may only roll on.
        return tuple(
            _evolve(o, may_bank=False) if o.may_bank and not self._may_open(o.points) else o
            for o in options
        )

    def _may_open(self, points: int) -> bool:
        return self.turn_points + points >= self.rules.entry_minimum

    def bank_needs(self, option: KeepOption) -> int | None:
        """The points a turn needs to bank (the entry minimum) when keeping ``option`` leaves
        this turn below them before a first bank; None when the minimum does not stop it."""
        if self.opened or self._may_open(option.points):
            return None
        return self.rules.entry_minimum

    def ended_by_close(self) -> Game:
        """The game ended by its puzzle's close: banked points stay, points at risk are lost
        (docs/play.md), and turns not reached are not played."""
        if self.finished:
            return self
        turns = self.turns
        if turns[-1].throws:
            turns = (*turns[:-1], _evolve(turns[-1], points=0, done=True))
        else:
            turns = turns[:-1]
        return _evolve(
            self, state=FINISHED, turns=turns, turn_points=0, in_hand=0, roll=0, sets=(), events=()
        )

    def apply(self, action: Action, *, events: bool = True) -> Game:
        """The game after ``action``, its ``events`` saying what the action caused; FarkleError
        (and this game unchanged) when refused. With ``events=False`` they are left empty: a
        replay's steps before its last, whose events no one reads."""
        if self.state == FINISHED:
            raise FarkleError("finished", "The game is over.")
        if isinstance(action, Roll):
            if self.state != AWAITING_ROLL:
                raise FarkleError("wrong_state", "Keep at least one die from this throw first.")
            game = self._draft(events)
            game._throw()
            return game._recorded()
        if isinstance(action, Keep):
            if self.state != AWAITING_KEEP:
                raise FarkleError("wrong_state", "Roll the dice first.")
            if action.then not in ("roll", "bank"):
                raise FarkleError("invalid_action", "`then` is either 'roll' or 'bank'.")
            game = self._draft(events)
            game._keep(action)
            return game._recorded()
        if isinstance(action, TimeOut):
            return self.time_out(action.turn, events=events)
        raise FarkleError("invalid_action", "Unknown action.")

    def time_out(self, turn: int, *, events: bool = True) -> Game:
        """The game after turn ``turn``'s clock ran out: the turn ends with nothing banked.

        Seed 001 («A zéro, les points non encaissés sont perdus»): like a Farkle for the turn's
        points, but no throw failed, so it is no Farkle: it neither adds to nor clears the
        Farkles in a row of the three-Farkle penalty.
        """
        if self.state == FINISHED:
            raise FarkleError("finished", "The game is over.")
        if turn != self.turn:
            raise FarkleError("wrong_state", f"The game is at turn {self.turn}, not {turn}.")
        game = self._draft(events)
        game._event("timed_out", points=self.turn_points)
        game._end_turn(banked=0, farkle=False, timed_out=True)
        return game._recorded()

    # The steps below change a draft in place: the next game, copied once by ``_draft`` and seen
    # by no one before ``apply`` returns it, so the values the engine hands out stay immutable.
    # A copy per step made a replay rebuild the game seven times an action; the close replays
    # every game left unfinished (its foresight check), and the site replays games to serve them.

    def _draft(self, events: bool) -> Game:
        # Events None while the steps run: none are recorded (``apply(events=False)``).
        return _evolve(self, step=self.step + 1, events=() if events else None)

    def _recorded(self) -> Game:
        if self.events is None:
            self._set(events=())
        return self

    def _set(self, **changes: Any) -> None:
        self.__dict__.update(changes)

    def _event(self, kind: str, **fields: Any) -> None:
        if self.events is None:
            return
        # Copied from a blank event: a frozen dataclass's __init__ sets each of its eight fields
        # through object.__setattr__, half again the time, for the thirty events of a game.
        event = _evolve(_BLANK_EVENT, kind=kind, turn=self.turn, **fields)
        self._set(events=(*self.events, event))

    def _keep(self, action: Keep) -> None:
        option = keep_option(self.dice, action.positions, self.table, self.sets)
        if action.then == "bank" and not option.may_bank:
            raise FarkleError(
                "wrong_state", "Every die has scored: all of them must be thrown again."
            )
        if action.then == "bank" and not self.opened and not self._may_open(option.points):
            raise FarkleError(
                "below_entry_minimum",
                f"The first bank needs at least {self.rules.entry_minimum} points in one turn.",
            )
        turn = self.turns[-1]
        kept = _evolve(turn.throws[-1], keep=option)
        turn = _evolve(turn, throws=(*turn.throws[:-1], kept))
        self._set(
            in_hand=option.dice_left,
            turn_points=self.turn_points + option.points,
            turns=(*self.turns[:-1], turn),
            sets=option.sets,
        )
        self._event("kept", positions=option.positions, points=option.points)
        if action.then == "bank":
            self._end_turn(banked=self.turn_points, farkle=False)
            return
        if option.hot_dice:
            # Hot dice (seed 000): once every die of the turn has scored, all of them come back.
            self._event("hot_dice", in_hand=option.dice_left)
        self._throw()

    def _throw(self) -> None:
        roll = self.roll + 1
        dice = throw_faces(self.seed, self.turn, roll, self.table.dice)[: self.in_hand]
        turn = self.turns[-1]
        kind = throw_kind(dice, self.table, self.sets)
        thrown = Throw(dice=dice, sets=self.sets, farkle=kind == FARKLE, rethrow=kind == RETHROW)
        turn = _evolve(turn, throws=(*turn.throws, thrown))
        self._set(roll=roll, state=AWAITING_KEEP, turns=(*self.turns[:-1], turn))
        self._event("rolled", roll=roll, dice=dice)
        if kind == FARKLE:
            # Seed 000: a throw that scores nothing loses the turn's points and ends the turn.
            self._event("farkle", points=self.turn_points)
            self._end_turn(banked=0, farkle=True)
        elif kind == RETHROW:
            # Seed 004: the pair is thrown again; nothing to keep, the points stay at risk.
            self._set(state=AWAITING_ROLL)
            self._event("rethrow", dice=dice)

    def _end_turn(self, *, banked: int, farkle: bool, timed_out: bool = False) -> None:
        score = self.score + banked
        penalty = 0
        if timed_out:
            # Seed 001: the turn's points are lost; the Farkles in a row stand as they were.
            pass
        elif not farkle:
            # Seed 004: a bank clears the crosses (keeping dice alone does not).
            self._set(opened=True, farkles_in_row=0)
            self._event("banked", points=banked, score=score)
        elif self.rules.farkle_penalty and self.opened:
            # Seed 004: no cross before opening; at three crosses the player loses 500 and the
            # crosses go back to zero. Seed 000: the score never goes below 0.
            in_row = self.farkles_in_row + 1
            if in_row == 3:
                penalty = min(self.rules.farkle_penalty, score)
                score -= penalty
                in_row = 0
            self._set(farkles_in_row=in_row)
            if in_row == 0:
                self._event("penalty", points=penalty, score=score)
        turn = _evolve(
            self.turns[-1],
            points=banked,
            farkle=farkle,
            done=True,
            penalty=penalty,
            timed_out=timed_out,
        )
        turns = (*self.turns[:-1], turn)
        if self.turn == TURNS:
            self._set(
                state=FINISHED, turns=turns, score=score, turn_points=0, in_hand=0, roll=0, sets=()
            )
            self._event("game_finished", score=score)
            return
        self._set(
            state=AWAITING_ROLL,
            turn=self.turn + 1,
            roll=0,
            in_hand=self.table.dice,
            turn_points=0,
            score=score,
            turns=(*turns, Turn(number=self.turn + 1)),
            sets=(),
        )
        self._event("turn_started")
