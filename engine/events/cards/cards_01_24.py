"""Card events #1-#24, in card-number order, as the card texts
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

# 1 Greater Houston Ministerial Association: prevention of #9, #44, #73 (cards.csv)
event(
    1,
    op("move_token", who="kennedy", state="TX"),
    op("momentum", who="kennedy", n=1),
    op("place_support", who="kennedy", n=5, per=1),
)


# 2 Nixon's Knee: Nixon's token to Maryland; campaigning costs Nixon 1 momentum extra.
def _knee_cost(g: GameState, e: Effect, side: str, kind: str) -> int:
    return 1 if side == "nixon" and kind == "campaign" else 0


define("nixons_knee", EffectRules(play_cost=_knee_cost))
event(2, op("move_token", who="nixon", state="MD"), op("add_effect", effect="nixons_knee"))

# 3 Gallup Poll: the player rearranges the issue track.
event(3, op("rearrange_issues", who="player"))


# 4 Citizens for Nixon-Lodge: every card Nixon plays is worth 1 CP more (max 5) this turn.
def _plus_one_any(g: GameState, e: Effect, side: str, kind: str) -> int:
    return 1 if side == e["side"] else 0


define("cp_plus_one_any_use", EffectRules(cp_delta=_plus_one_any))
event(4, op("add_effect", effect="cp_plus_one_any_use", who="nixon"))

# 5 Volunteers
event(5, op("momentum", who="player", n=1))

# 6 New England (ruling: New York is the sixth state)
event(
    6, op("place_support", who="kennedy", n=5, per=2, states=["CT", "MA", "ME", "RI", "VT", "NY"])
)

# 7 Late Returns from Cook County: on Election Day Kennedy makes 5 checks for Illinois.
event(7, election_day=(op("support_checks", who="kennedy", state="IL", n=5),))

# 8 Soviet Economic Growth: Economy up 1; the Economy leader adds a cube in New York.
event(
    8,
    op("issue_up", issue="economy", n=1),
    op("gain_support", who="leader:economy", state="NY", n=1),
)

# 9 Baptist Ministers (prevented by #1, cards.csv)
event(
    9, op("remove_support", who="nixon", target="kennedy", n=5, per=2, regions=["south", "midwest"])
)

# 10 Swing State: a state the opponent leads but does not carry: 5 support, token there.
event(
    10,
    op("pick_state", who="player", var="swing", rule="opp_leads_not_carries"),
    op("gain_support", who="player", state="var:swing", n=5),
    op("move_token", who="player", state="var:swing"),
)

# 11 Sputnik V
event(
    11, op("issue_up", issue="defense", n=1), op("place_support", who="leader:defense", n=3, per=1)
)

# 12 Southern Strategy
event(
    12,
    op("place_support", who="nixon", n=5, per=2, regions=["south"]),
    op("issue_support", who="kennedy", issue="civil_rights", n=1),
)

# 13 Nikita Kruschev (ruling: the event of #84 Quemoy and Matsu)
event(
    13,
    op("momentum", who="leader:defense", n=1),
    op("place_support", who="leader:defense", n=3, per=1),
)

# 14-17 Gathering Momentum
event(14, op("gathering_momentum", region="south"))
event(15, op("gathering_momentum", region="east"))
event(16, op("gathering_momentum", region="midwest"))
event(17, op("gathering_momentum", region="west"))

# 18 Dwight D. Eisenhower (prevents #74, cards.csv)
event(18, op("place_support", who="nixon", n=7, per=1))

# 19 Old South: the Civil Rights leader loses 5 Southern support and may not campaign there.
event(
    19,
    op("remove_support", who="leader:civil_rights", n=5, regions=["south"], optional=False),
    op("ban_campaign", who="leader:civil_rights", regions=["south"]),
)

# 20 Nixon Egged in Michigan
event(
    20,
    op("move_token", who="nixon", state="MI"),
    op("lose_state_support", who="nixon", state="MI", n=1),
    op("ban_campaign", who="nixon", regions=["midwest"]),
)

# 21 Fifty Stars (ruling: more cubes in AK and HI combined; a tie benefits nobody)
event(
    21,
    op("set_side", var="stars", states=["AK", "HI"]),
    op("place_support", who="var:stars", n=5, per=1),
)

# 22 Gaffe
event(22, op("momentum", who="opponent", n=-1), op("token_loss", who="opponent", n=3))

# 23 Martin Luther King Arrested
event(
    23,
    op("issue_up", issue="civil_rights", n=1),
    op("issue_support", who="player", issue="civil_rights", n=3),
)

# 24 East Harlem Pledge
event(
    24,
    op("lose_issue_support", who="nixon", issue="civil_rights", n=1),
    op("remove_support", who="kennedy", target="nixon", n=5, per=2, regions=["south"]),
)
