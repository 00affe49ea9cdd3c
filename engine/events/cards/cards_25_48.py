"""Card events #25-#48, in card-number order, as the card texts
say (pbem/reports/data/card_text.json; sources in docs/DATA.md).

A card that names a candidate ("Nixon places ...") acts for that candidate whoever resolves
it; "player" is whoever resolves it (played, or triggered by the opponent, R6.7). Rest-of-turn
effects (R6.3) are defined beside their card with the hooks of `engine.effects`; prevention
links (R6.4) come from cards.csv.
"""

from __future__ import annotations

from engine.effects import Effect, EffectRules, define
from engine.events.script import event, op
from engine.state import GameState

# 25 1960 Civil Rights Act
event(
    25,
    op("issue_up", issue="civil_rights", n=1),
    op("issue_support", who="nixon", issue="civil_rights", n=1),
)


# 26 Ken-Air: no travel costs, +1 CP on campaigning cards (max 5) this turn.
def _ken_air_travel(g: GameState, e: Effect, side: str) -> bool:
    return bool(side == e["side"])


def _ken_air_cp(g: GameState, e: Effect, side: str, kind: str) -> int:
    return 1 if side == e["side"] and kind == "campaign" else 0


define("ken_air", EffectRules(travel_free=_ken_air_travel, cp_delta=_ken_air_cp))
event(26, op("add_effect", effect="ken_air", who="kennedy"))

# 27 Nelson Rockefeller
event(27, op("gain_support", who="nixon", state="NY", n=1), op("take_from_discard", who="nixon"))

# 28 Harry F. Byrd (no per-state cap)
event(28, op("remove_support", who="nixon", target="kennedy", n=3, states=["OK", "MS", "AL"]))

# 29 The Great Seal Bug
event(
    29,
    op("issue_support", who="nixon", issue="defense", n=1),
    op("take_from_discard", who="nixon", cards=[42]),
)

# 30 Johnson Jeered in Dallas
event(
    30,
    op("lose_state_support", who="kennedy", state="TX", n=1),
    op("ban_campaign", who="kennedy", regions=["south"]),
)


# 31 Profiles in Courage: Kennedy may redraw each failed support check once this turn.
def _redraw(g: GameState, e: Effect, side: str) -> bool:
    return bool(side == e["side"])


define("redraw_failed_checks", EffectRules(redraw=_redraw))
event(31, op("add_effect", effect="redraw_failed_checks", who="kennedy"))

# 32 Early Returns from Connecticut: on Election Day the Connecticut leader checks 5x for California.
event(
    32,
    election_day=(
        op("set_side", var="ct", states=["CT"]),
        op("support_checks", who="var:ct", state="CA", n=5),
    ),
)

# 33 Unpledged Electors (tally: engine.phases.election)
event(33, election_day=(op("unpledge", states=["AL", "LA", "MS"]),))

# 34 Lazy Shave: in every debate round Nixon reveals his card before Kennedy chooses (R12.4).
event(34, reveal_first="nixon")


# 35 Harvard Brain Trust: Kennedy +1 CP in every issue contest of the Debates.
def _harvard(g: GameState, side: str) -> int:
    return 1 if side == "kennedy" else 0


event(35, debate_bonus=_harvard)

# 36 Henry Luce
event(36, op("endorse", who="kennedy"))

# 37 Lunch Counter Sit-Ins
event(
    37,
    op("issue_up", issue="civil_rights", n=1),
    op("place_support", who="leader:civil_rights", n=3, per=1),
)

# 38 High Hopes (ruling: Kennedy and two-icon cards resolve as if Kennedy played them)
event(38, op("reveal_and_resolve", n=2, icons=["kennedy", "both"], as_side="kennedy"))

# 39 Lyndon Johnson (ruling: the Texas 2 do not count toward the cap of 2)
event(
    39,
    op("gain_support", who="kennedy", state="TX", n=2),
    op("place_support", who="kennedy", n=3, per=2, regions=["south"]),
    op("restore_candidate", who="kennedy"),
)

# 40 Northern Blacks
event(40, op("place_support", who="leader:civil_rights", n=5, per=2, states=["IL", "MI", "NY"]))

# 41 Pierre Salinger
event(41, op("issue_choice", who="kennedy", n=3))

# 42 Henry Cabot Lodge
event(
    42,
    op("gain_support", who="nixon", state="MA", n=2),
    op("issue_support", who="nixon", issue="defense", n=2),
    op("restore_candidate", who="nixon"),
)

# 43 Catholic Support
event(43, op("place_support", who="kennedy", n=7, per=2))


# 44 Puerto Rican Bishops (prevented by #1): Kennedy may not spend momentum this turn.
def _locked(g: GameState, e: Effect, side: str) -> bool:
    return bool(side == e["side"])


define("no_momentum_spending", EffectRules(momentum_locked=_locked))
event(44, op("add_effect", effect="no_momentum_spending", who="kennedy"))

# 45 Compact of Fifth Avenue
event(
    45,
    op("move_token", who="nixon", state="NY"),
    op("issue_support", who="nixon", issue="civil_rights", n=1),
    op("gain_support", who="nixon", state="NY", n=2),
    op("media", who="nixon", region="east", n=1),
)

# 46 Prime-Time Television: a region where the player has media; up to 5 there, max 2 per state.
event(
    46,
    op("pick_region", who="player", var="tv", rule="has_media"),
    op("place_support_var", who="player", n=5, per=2, region="var:tv"),
)

# 47 The Cold War
event(47, op("place_support", who="leader:defense", n=5, per=1))

# 48 Rising Food Prices
event(
    48, op("issue_up", issue="economy", n=1), op("issue_support", who="nixon", issue="economy", n=2)
)
