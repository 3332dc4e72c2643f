"""Tleilaxu Face Dancers after a battle (Ixians & Tleilaxu; the Tleilaxu faction sheet).

The Tleilaxu hold three Face Dancers: leader cards from the Traitor deck, kept secret. When a battle
has a winner whose leader is one of the unrevealed Face Dancers, the Tleilaxu may reveal it once the
battle is settled. The battle's result stands; the leader goes to the Tanks (nobody is paid for it);
the winner's forces in the territory go back to its reserves and the Tleilaxu may put up to as many
of their own forces there, from reserves and/or the board. Once all three are revealed, they go back
into the Traitor deck, which is shuffled, and three new ones are drawn.

The decision is offered after every battle with a winner whose leader is a leader disc, whenever the
Tleilaxu still hold an unrevealed Face Dancer: offering it only on a match would tell everyone who
sees the decision that the leader is one. Whether the reveal is possible shows only in the options,
which only the Tleilaxu see.

After a battle on one side of a storm-divided territory, which of the winner's forces the reveal
replaces, and where the Tleilaxu forces may go, is question `face-dancer-storm-split`. It is reached
when the battle is resolved (the decision's `forces` depends on it) and its reading is kept on the
resolution (`face_dancer_reading`) until the decision is answered.

Whether a Karama can stop the reveal is question `face-dancer-karama`. Under `window-after-reveal` the
reveal, once checked, waits on the resolution (`face_dancer_reveal`) while a `face-dancer-karama`
window asks every faction but the Tleilaxu in storm order, holder or not, since the reveal itself is
the only fact the window opens on. The first Karama played stops it and nothing of it happens: the
Face Dancer stays unrevealed, to be revealed after a later battle; after the last pass the reveal
takes effect as it does without a window.

The winner is paid for every leader killed in the battle, its own included; when that leader is then
revealed as a Face Dancer, whether the winner pays the spice back is question
`face-dancer-earlier-bounty`. What it was paid is kept on the resolution (`own_leader_bounty`) from the
battle's resolution, since the kill's cause (an Artillery Strike pays nothing) is gone by then.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from adjudicator.core.action import Action, Context, InterpretationNeeded, choice_of
from adjudicator.core.catalog import catalog
from adjudicator.core.decisions import FaceDancerKaramaDecision, FaceDancerReveal, opened
from adjudicator.core.records import BoardSource, FaceDancerRevealRecord
from adjudicator.core.results import Adjudication, Alternative, Violation
from adjudicator.core.rulebook import DecisionKind, RuleModule
from adjudicator.core.rulings import answers, found, illegal, ruled, unresolved
from adjudicator.core.snapshot import Decision, Snapshot
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import DUKE, TLEILAXU, ActionType, DecisionType, Evidence
from adjudicator.rules.battle.sectors import battle_sectors
from adjudicator.rules.harkonnen import captives_return_when_leaderless, harkonnen_leaderless
from adjudicator.rules.moritani.retention import held_karamas
from adjudicator.rules.state import NextSnapshot, finish

FACE_DANCERS_HELD = 3
STORM_SIDE_QUESTION = "face-dancer-storm-split"
FACE_DANCER_KARAMA_QUESTION = "face-dancer-karama"
WINDOW_READING = "window-after-reveal"
BOUNTY_QUESTION = "face-dancer-earlier-bounty"
BOUNTY_RETURNED = "bounty-returned"
WINDOW = DecisionType.FACE_DANCER_KARAMA.value
# the power a Karama in the window stops, as the events name it
REVEAL_POWER = DecisionType.FACE_DANCER_REVEAL.value
# the resolution's records that live only as long as the Face Dancer step (or its window)
STEP_RECORDS = ("face_dancer_reading", "own_leader_bounty", "face_dancer_reveal")


def winner_leader(snapshot: Snapshot) -> tuple[str | None, str | None]:
    """The resolved battle's winner and the leader disc it fought with (None for a Cheap Hero)."""
    battle = snapshot.battle
    winner = None if battle is None or battle.resolution is None else battle.resolution.winner
    if battle is None or winner is None:
        return None, None
    plan = battle.plans.get(winner)
    return winner, None if plan is None else plan.leader


def _winner_leader_now(state: NextSnapshot) -> tuple[str | None, str | None]:
    """The same, read from the working state (its resolution may be the one just decided)."""
    winner = state.resolution.winner
    return winner, None if winner is None else state.battle_leader(winner)


def may_be_face_dancer(leader: str | None) -> bool:
    """A leader disc with a Traitor card (not a Cheap Hero, not Duke Vidal) can be a Face Dancer."""
    known = catalog().leaders.get(leader or "")
    return known is not None and leader != DUKE and known.traitor_card


@rule("tleilaxu.face-dancer.opportunity")
def face_dancer_opportunity(winner: str | None, leader: str | None) -> bool:
    return winner not in (None, TLEILAXU) and may_be_face_dancer(leader)


@rule("tleilaxu.face-dancer.asked-always")
def asked_whatever_the_match() -> None:
    pass


@rule("tleilaxu.face-dancer.after-capture")
def face_dancer_after_capture() -> None:
    pass


def face_dancer_step(state: NextSnapshot) -> bool:
    if not state.has_face_dancers or not face_dancer_opportunity(*_winner_leader_now(state)):
        return False
    asked_whatever_the_match()
    if state.step is not None:
        face_dancer_after_capture()
    return True


def storm_side_reading(state: NextSnapshot, covered: frozenset[int] | None, context: Context) -> None:
    """A Face Dancer decision after a battle on one side of the storm: the reading of
    `face-dancer-storm-split` it follows, recorded on the resolution when the battle is resolved."""
    if covered is not None:
        state.update_resolution(face_dancer_reading=context.choice(STORM_SIDE_QUESTION))


def keep_own_leader_bounty(state: NextSnapshot, paid: int) -> None:
    """A Face Dancer decision to come: the spice the winner was just paid for its own leader killed in
    the battle, kept on the resolution for question face-dancer-earlier-bounty at the reveal."""
    if paid:
        state.update_resolution(own_leader_bounty=paid)


@rule("tleilaxu.face-dancer.storm-side")
def storm_side_sectors(covered: frozenset[int], reading: str | None) -> frozenset[int] | None:
    return covered if reading == "battle-sectors" else None


def replaced_sectors(snapshot: Snapshot) -> frozenset[int] | None:
    """The sectors whose winner's forces a reveal replaces (None: the whole territory)."""
    battle = snapshot.battle
    covered = battle_sectors(snapshot)
    if battle is None or battle.resolution is None or covered is None:
        return None
    return storm_side_sectors(covered, battle.resolution.face_dancer_reading)


def _replaced_sectors_now(state: NextSnapshot) -> frozenset[int] | None:
    covered = state.battle_cover
    if covered is None:
        return None
    return storm_side_sectors(covered, state.resolution.face_dancer_reading)


def _face_dancer_decision(state: NextSnapshot) -> dict[str, Any]:
    winner, leader = _winner_leader_now(state)
    territory = state.battle_territory
    forces = state.forces_in(str(winner), territory, _replaced_sectors_now(state))
    return opened(TLEILAXU, FaceDancerReveal(territory=territory, winner=winner, leader=leader, forces=forces))


def _target_sectors(snapshot: Snapshot, territory: str) -> list[int | None]:
    """The sectors the Tleilaxu forces may go to: those of the part of the territory whose forces they
    replace, outside the storm."""
    known = catalog().territories.get(territory)
    if known is None or not known.has_sectors:
        return [None]
    within = replaced_sectors(snapshot)
    return [s for s in known.sectors if s != snapshot.storm_sector and (within is None or s in within)]


def face_dancer_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    """Declining, and (when the leader is an unrevealed Face Dancer) one reveal per sector the Tleilaxu
    forces may be put in, taking as many as allowed from reserves. Fewer forces, or forces taken from
    the board, are legal too and are checked when sent."""
    decline = {"type": ActionType.DECLINE_FACE_DANCER.value, "player": TLEILAXU}
    reveal = decision.as_(FaceDancerReveal)
    leader = reveal.leader
    tleilaxu = snapshot.factions.get(TLEILAXU)
    if tleilaxu is None or leader not in tleilaxu.face_dancers:
        return [decline]
    placed = min(_limit(snapshot), tleilaxu.reserves.regular)
    placements = [(sector, placed) for sector in _target_sectors(snapshot, str(reveal.territory))] if placed else []
    reveals: list[dict[str, Any]] = [
        {
            "type": ActionType.REVEAL_FACE_DANCER.value,
            "player": TLEILAXU,
            "leader": leader,
            "sector": sector,
            "from_reserves": count,
            "from_board": [],
        }
        for sector, count in [*placements, (None, 0)]
    ]
    return [*reveals, decline]


def _limit(snapshot: Snapshot) -> int:
    """How many Tleilaxu forces may come in: the winner's forces the reveal replaces, from the snapshot."""
    battle = snapshot.battle
    if battle is None or battle.resolution is None or battle.resolution.winner is None:
        return 0
    return winner_forces(snapshot, str(battle.resolution.winner), battle.territory, replaced_sectors(snapshot))


def _open_decision(snapshot: Snapshot, action: Action) -> Violation | None:
    pending = snapshot.pending
    battle = snapshot.battle
    if (
        pending is None
        or pending.type != DecisionType.FACE_DANCER_REVEAL.value
        or battle is None
        or battle.resolution is None
    ):
        return Violation("no-such-decision", "no open face-dancer-reveal decision to answer", "/action/type")
    if action.player != pending.player:
        return Violation("not-your-decision", f"the decision is {pending.player}'s", "/action/player")
    return None


@rule("tleilaxu.face-dancer.replace-forces")
def replacement_violations(snapshot: Snapshot, territory: str, action: Action) -> list[Violation]:
    rule_id = "tleilaxu.face-dancer.replace-forces"
    found: list[Violation] = []
    tleilaxu = snapshot.factions[TLEILAXU]
    from_reserves = int(action.fields.get("from_reserves", 0))
    if from_reserves > tleilaxu.reserves.regular:
        found.append(
            Violation(
                "not-enough-reserves",
                f"the Tleilaxu have {tleilaxu.reserves.regular} forces in reserve",
                "/action/from_reserves",
                rule_id,
            )
        )
    taken: Counter[tuple[str, int | None]] = Counter()
    for i, source in enumerate(action.fields.get("from_board") or ()):
        where = (str(source["territory"]), source.get("sector"))
        taken[where] += int(source["count"])
        path = f"/action/from_board/{i}"
        if where[0] == territory:
            found.append(
                Violation("source-is-target", "forces already in the territory are not moved in", path, rule_id)
            )
        elif where[1] is not None and where[1] == snapshot.storm_sector:
            found.append(Violation("source-in-storm", "forces in the storm sector cannot be moved", path, rule_id))
    for (where_territory, where_sector), count in taken.items():
        held = sum(
            s.regular
            for s in snapshot.forces
            if s.faction == TLEILAXU and s.territory == where_territory and s.sector == where_sector
        )
        if count > held:
            found.append(
                Violation(
                    "not-enough-forces",
                    f"the Tleilaxu have {held} forces in {where_territory} sector {where_sector}",
                    "/action/from_board",
                    rule_id,
                )
            )
    total = from_reserves + sum(taken.values())
    limit = _limit(snapshot)
    if total > limit:
        found.append(
            Violation(
                "too-many-forces",
                f"at most {limit} forces replace the winner's ({total} given)",
                "/action/from_reserves",
                rule_id,
            )
        )
    sector = action.fields.get("sector")
    if total == 0 and sector is not None:
        found.append(
            Violation("no-forces-to-place", "no forces are put in: sector must be null", "/action/sector", rule_id)
        )
    elif total > 0 and sector not in _target_sectors(snapshot, territory):
        found.append(
            Violation(
                "sector-not-allowed",
                f"the forces go into a sector of {territory} outside the storm, among those whose forces they replace",
                "/action/sector",
                rule_id,
            )
        )
    return found


def reveal_violations(
    snapshot: Snapshot, territory: str, winners_leader: str | None, action: Action
) -> list[Violation]:
    """What makes a reveal of the winner's leader after the battle in `territory` illegal."""
    leader = action.fields.get("leader")
    tleilaxu = snapshot.factions[TLEILAXU]
    if leader != winners_leader:
        return [
            Violation(
                "not-the-winners-leader",
                f"only the winner's leader ({winners_leader}) can be revealed",
                "/action/leader",
                "tleilaxu.face-dancer.reveal",
            )
        ]
    if leader not in tleilaxu.face_dancers:
        code = "already-revealed" if leader in tleilaxu.revealed_face_dancers else "not-a-face-dancer"
        return [
            Violation(
                code,
                f"{leader} is not one of the unrevealed Face Dancers",
                "/action/leader",
                "tleilaxu.face-dancer.reveal",
            )
        ]
    found = replacement_violations(snapshot, territory, action)
    if len(tleilaxu.face_dancers) == 1 and snapshot.traitor_deck is None:
        found.append(
            Violation(
                "traitor-deck-required",
                "this reveal uses the last unrevealed Face Dancer; drawing new ones needs snapshot.traitor_deck",
                "/snapshot/traitor_deck",
                "tleilaxu.face-dancer.redraw",
            )
        )
    return found


@rule("tleilaxu.face-dancer.reveal")
def reveal_face_dancer_effect(state: NextSnapshot, leader: str) -> None:
    state.reveal_face_dancer(leader)
    state.event("face-dancer-revealed", "tleilaxu.face-dancer.reveal", leader=leader)
    if not state.leader_in_tanks(leader):
        state.leader_to_tanks(leader, "tleilaxu.face-dancer.reveal")


def replace_forces(
    state: NextSnapshot, winner: str, territory: str, sectors: frozenset[int] | None, action: Action
) -> None:
    """Apply the checked replacement: the winner's forces (in `sectors`, if given) to its reserves, the
    Tleilaxu forces in."""
    regular, elite = state.forces_to_reserves(winner, territory, sectors)
    if regular or elite:
        state.event(
            "forces-to-reserves",
            "tleilaxu.face-dancer.replace-forces",
            faction=winner,
            territory=territory,
            **({} if sectors is None else {"sectors": sorted(sectors)}),
            regular=regular,
            elite=elite,
        )
    from_reserves = int(action.fields.get("from_reserves", 0))
    from_board = tuple(
        (str(source["territory"]), source.get("sector"), int(source["count"]))
        for source in action.fields.get("from_board") or ()
    )
    sector = action.fields.get("sector")
    moved = state.bring_in_forces(TLEILAXU, territory, sector, from_reserves, from_board)
    if moved:
        state.event(
            "forces-placed",
            "tleilaxu.face-dancer.replace-forces",
            faction=TLEILAXU,
            territory=territory,
            sector=sector,
            regular=moved,
            from_reserves=from_reserves,
        )


@rule("tleilaxu.face-dancer.redraw")
def redraw_face_dancers(state: NextSnapshot, seed: int, turn: int) -> None:
    state.return_to_traitor_deck(*state.revealed_face_dancers)
    state.shuffle_traitor_deck(random.Random(f"{seed}:{turn}:{len(state.traitor_deck)}:face-dancer-redraw"))
    drawn = state.draw_traitor_cards(FACE_DANCERS_HELD)
    state.new_face_dancers(drawn)
    state.event("face-dancers-redrawn", "tleilaxu.face-dancer.redraw", count=len(drawn))


@rule("tleilaxu.face-dancer.earlier-bounty")
def earlier_bounty_stands() -> None:
    pass


@rule("tleilaxu.face-dancer.bounty-returned")
def return_earlier_bounty(state: NextSnapshot, winner: str, paid: int, held: int) -> int:
    returned = min(paid, held)
    if returned < paid:
        bounty_short_of_spice()
    state.pay_to_bank(winner, returned, "tleilaxu.face-dancer.bounty-returned", "face dancer bounty returned")
    return returned


@rule("tleilaxu.face-dancer.bounty-short")
def bounty_short_of_spice() -> None:
    pass


def earlier_bounty(
    state: NextSnapshot, snapshot: Snapshot, winner: str, interpretations: Mapping[str, str]
) -> int | None:
    """The revealed leader died in the battle: the spice paid for it stays (None), or, under the
    bounty-returned reading of face-dancer-earlier-bounty, the winner pays it back (the amount it pays)."""
    if choice_of(interpretations, BOUNTY_QUESTION) != BOUNTY_RETURNED:
        earlier_bounty_stands()
        return None
    assert snapshot.battle is not None and snapshot.battle.resolution is not None
    paid = snapshot.battle.resolution.own_leader_bounty or 0
    return return_earlier_bounty(state, winner, paid, snapshot.factions[winner].spice)


def _apply_reveal(
    snapshot: Snapshot, action: Action, interpretations: Mapping[str, str], window_closed: bool = False
) -> tuple[NextSnapshot, dict[str, Any]]:
    """The reveal takes effect (after the last pass of its Karama window, when `window_closed`)."""
    assert snapshot.battle is not None and snapshot.battle.resolution is not None
    leader = str(action.fields["leader"])
    winner = str(snapshot.battle.resolution.winner)
    territory = snapshot.battle.territory
    state = NextSnapshot(snapshot)
    if window_closed:
        reveal_stands(state)
    died_in_battle = state.leader_in_tanks(leader)  # and the winner may have been paid for it
    reveal_face_dancer_effect(state, leader)
    returned = earlier_bounty(state, snapshot, winner, interpretations) if died_in_battle else None
    if harkonnen_leaderless(state):
        captives_return_when_leaderless(state, interpretations)
    replace_forces(state, winner, territory, replaced_sectors(snapshot), action)
    if not state.face_dancers:
        redraw_face_dancers(state, snapshot.seed, snapshot.turn)
    _step_done(state)
    placed = sum(e["regular"] for e in state.events if e["type"] == "forces-placed")
    revealed: dict[str, Any] = {"revealed": True, "leader": leader, "winner": winner, "forces_placed": placed}
    if returned is not None:
        revealed["bounty_returned"] = returned
    return state, {"battle": {"face_dancer": revealed}}


def _reveal_alternatives(
    snapshot: Snapshot, action: Action, context: Context, chosen: dict[str, str], window_closed: bool
) -> list[Alternative]:
    """One alternative per combination of the open questions the reveal reaches (a captive Duke Vidal's
    return when the reveal leaves the Harkonnen leaderless)."""
    under = context.under(chosen)
    try:
        state, summary = _apply_reveal(snapshot, action, under.interpretations, window_closed)
    except InterpretationNeeded as needed:
        found: list[Alternative] = []
        for choice in context.rulebook.implemented_choices(needed.question):
            chosen_now = {**chosen, needed.question: choice}
            found += _reveal_alternatives(snapshot, action, context, chosen_now, window_closed)
        return found
    outcome = finish(snapshot, state, summary, [], under).outcome
    assert outcome is not None
    return [Alternative(MappingProxyType(chosen), dict(outcome), Evidence.PROVISIONAL_ORDERING)]


def _revealed(
    snapshot: Snapshot, action: Action, context: Context, trace: Trace, window_closed: bool = False
) -> Adjudication:
    try:
        state, summary = _apply_reveal(snapshot, action, context.interpretations, window_closed)
    except InterpretationNeeded:
        return unresolved(_reveal_alternatives(snapshot, action, context, {}, window_closed), trace, context)
    return finish(snapshot, state, summary, trace, context)


@rule("tleilaxu.face-dancer.no-karama")
def reveal_beyond_karama() -> None:
    pass


def window_on_reveal(context: Context) -> bool:
    """Question face-dancer-karama: whether a Karama window opens on the reveal."""
    if context.choice(FACE_DANCER_KARAMA_QUESTION) == WINDOW_READING:
        return True
    reveal_beyond_karama()
    return False


@rule("tleilaxu.face-dancer.karama-window")
def window_responders(storm_order: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(f for f in storm_order if f != TLEILAXU)


def declare_reveal(state: NextSnapshot, action: Action, responders: tuple[str, ...]) -> FaceDancerRevealRecord:
    """The checked reveal waits on the resolution, its step handed over to the Karama window on it."""
    record = FaceDancerRevealRecord(
        leader=str(action.fields["leader"]),
        sector=action.fields.get("sector"),
        from_reserves=int(action.fields.get("from_reserves", 0)),
        from_board=tuple(
            BoardSource(str(source["territory"]), int(source["count"]), sector=source.get("sector"))
            for source in action.fields.get("from_board") or ()
        ),
        responders=responders,
    )
    state.update_resolution(face_dancer_reveal=record)
    state.step_becomes(WINDOW)
    state.event(
        "face-dancer-declared", "tleilaxu.face-dancer.karama-window", leader=record.leader, responders=list(responders)
    )
    return record


def declared_reveal(record: FaceDancerRevealRecord) -> Action:
    """The reveal a Karama window waits on, as the Tleilaxu sent it."""
    return Action.from_dict(
        {
            "type": ActionType.REVEAL_FACE_DANCER.value,
            "player": TLEILAXU,
            "leader": record.leader,
            "sector": record.sector,
            "from_reserves": record.from_reserves,
            "from_board": [source.to_wire() for source in record.from_board],
        }
    )


def declared_reveal_violations(snapshot: Snapshot) -> list[Violation]:
    """What would make the reveal a Karama window waits on illegal in this snapshot (none when there is
    no such reveal): the snapshot checks ask this of a window sent back."""
    battle = snapshot.battle
    record = battle.resolution.face_dancer_reveal if battle is not None and battle.resolution is not None else None
    if battle is None or record is None or TLEILAXU not in snapshot.factions:
        return []
    return reveal_violations(snapshot, battle.territory, winner_leader(snapshot)[1], declared_reveal(record))


@ruled(found(_open_decision))
def reveal_face_dancer(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    assert snapshot.pending is not None and snapshot.battle is not None
    asked = snapshot.pending.as_(FaceDancerReveal)
    violations = reveal_violations(snapshot, snapshot.battle.territory, asked.leader, action)
    if violations:
        return illegal(snapshot, violations, trace, context)
    if window_on_reveal(context):
        state = NextSnapshot(snapshot)
        responders = window_responders(state.storm_order)
        if responders:
            record = declare_reveal(state, action, responders)
            summary = {"battle": {"face_dancer": {"declared": record.leader, "winner": asked.winner}}}
            return finish(snapshot, state, summary, trace, context)
    return _revealed(snapshot, action, context, trace)


@ruled(found(_open_decision))
def decline_face_dancer(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    face_dancer_opportunity(*winner_leader(snapshot))
    state = NextSnapshot(snapshot)
    _step_done(state)
    state.event("face-dancer-declined", "tleilaxu.face-dancer.opportunity")
    return finish(snapshot, state, {"battle": {"face_dancer": {"revealed": False}}}, trace, context)


def _window_record(state: NextSnapshot) -> FaceDancerRevealRecord:
    record = state.resolution.face_dancer_reveal
    assert record is not None, "a Karama window on a Face Dancer reveal keeps the reveal"
    return record


def _window_decision(state: NextSnapshot) -> dict[str, Any]:
    record = _window_record(state)
    responder = record.responders[0]
    eligible = tuple(held_karamas(state, responder))
    return opened(responder, FaceDancerKaramaDecision(owner=TLEILAXU, leader=record.leader, eligible=eligible))


def window_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    player = decision.player
    options: list[dict[str, Any]] = [
        {"type": ActionType.KARAMA_CANCEL.value, "player": player, "card": card}
        for card in decision.as_(FaceDancerKaramaDecision).eligible
    ]
    options.append({"type": ActionType.KARAMA_PASS.value, "player": player})
    return options


def _reading_kept(snapshot: Snapshot, action: Action, context: Context) -> list[Violation]:
    """The window opened under window-after-reveal; an answer to it cannot read the question otherwise."""
    chosen = context.interpretations.get(FACE_DANCER_KARAMA_QUESTION)
    if chosen is None or chosen == WINDOW_READING:
        return []
    return [
        Violation(
            "interpretation-mismatch",
            f"this Karama window opened on the reveal under {WINDOW_READING!r}; its answers cannot read"
            " the question otherwise",
            f"/interpretations/{FACE_DANCER_KARAMA_QUESTION}",
            "tleilaxu.face-dancer.karama-window",
        )
    ]


@rule("tleilaxu.face-dancer.karama-cancels")
def stop_reveal(state: NextSnapshot, faction: str, karama: str, leader: str) -> None:
    state.discard_from_hand(faction, karama)
    state.event("card-discarded", "tleilaxu.face-dancer.karama-cancels", faction=faction, card=karama, karama=True)
    state.add_to_batch(faction, karama)  # a fresh discard of the battle's cleanup (Semuta Drug)
    state.event(
        "power-cancelled",
        "tleilaxu.face-dancer.karama-cancels",
        faction=TLEILAXU,
        power=REVEAL_POWER,
        leader=leader,
        by=faction,
    )


@rule("tleilaxu.face-dancer.karama-pass")
def pass_reveal_window(record: FaceDancerRevealRecord) -> FaceDancerRevealRecord:
    return record.with_(responders=record.responders[1:])


def reveal_stands(state: NextSnapshot) -> None:
    """The last faction asked has passed: nothing stopped the reveal."""
    state.event("power-stands", "tleilaxu.face-dancer.karama-pass", faction=TLEILAXU, power=REVEAL_POWER)


@ruled(answers(WINDOW), _reading_kept)
def answer_reveal_window(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    """`karama-cancel` or `karama-pass` in the Karama window on a Face Dancer reveal."""
    assert snapshot.battle is not None and snapshot.battle.resolution is not None and action.player is not None
    record = snapshot.battle.resolution.face_dancer_reveal
    assert record is not None
    under = context.under({FACE_DANCER_KARAMA_QUESTION: WINDOW_READING})  # the reading it opened under
    window_responders(snapshot.storm_order)  # the window's order asked this faction
    state = NextSnapshot(snapshot)
    if action.type is ActionType.KARAMA_CANCEL:
        stop_reveal(state, action.player, str(action.fields["card"]), record.leader)
        _step_done(state)
        stopped = {"revealed": False, "leader": record.leader, "cancelled_by": action.player}
        return finish(snapshot, state, {"battle": {"face_dancer": stopped}}, trace, under)
    rest = pass_reveal_window(record)
    if rest.responders:
        state.update_resolution(face_dancer_reveal=rest)
        waiting = {"declared": record.leader, "passed": action.player}
        return finish(snapshot, state, {"battle": {"face_dancer": waiting}}, trace, under)
    # the reveal as checked when it was made (the snapshot checks hold a kept one to the same rules)
    problems = declared_reveal_violations(snapshot)
    if problems:
        return illegal(snapshot, problems, trace, under)
    return _revealed(snapshot, declared_reveal(record), under, trace, window_closed=True)


def _step_done(state: NextSnapshot) -> None:
    """The decision is answered (or its window closed): the records kept for it go with it."""
    kept = [key for key in STEP_RECORDS if getattr(state.resolution, key) is not None]
    if kept:
        state.clear_resolution(*kept)
    state.step_done()


def winner_forces(snapshot: Snapshot, winner: str, territory: str, sectors: frozenset[int] | None = None) -> int:
    """The winner's forces in the battle territory (in `sectors`, if given): as many as a revealed Face
    Dancer lets the Tleilaxu put there."""
    return sum(
        s.regular + s.elite
        for s in snapshot.forces
        if s.faction == winner and s.territory == territory and (sectors is None or s.sector in sectors)
    )


DECLARED = RuleModule(
    handlers={
        ActionType.REVEAL_FACE_DANCER: reveal_face_dancer,
        ActionType.DECLINE_FACE_DANCER: decline_face_dancer,
    },
    decisions={
        DecisionType.FACE_DANCER_REVEAL.value: DecisionKind(face_dancer_options),
        WINDOW: DecisionKind(window_options, self_contained=True),
    },
    steps={
        DecisionType.FACE_DANCER_REVEAL.value: _face_dancer_decision,
        WINDOW: _window_decision,
    },
    implements={
        BOUNTY_QUESTION: ("bounty-stands", BOUNTY_RETURNED),
        STORM_SIDE_QUESTION: ("battle-sectors", "whole-territory"),
        FACE_DANCER_KARAMA_QUESTION: ("no-window", WINDOW_READING),
    },
)
