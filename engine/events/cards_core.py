"""Events that exercise every mechanism of the event machinery (rules-engine issue):

#1 prevention, #2 and #76 rest-of-turn effects, #6 capped placement, #7 Election
Day, #14-#17 Gathering Momentum, #22 loss limited by the board, #35 debate event,
#56 a reveal to the opponent plus a granted CP action.
"""

from __future__ import annotations

from engine import board
from engine.effects import EffectRules, define
from engine.events import event, op
from engine.phases.debates import DEBATE_BONUS
from engine.state import GameState

Effect = dict[str, object]

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


# 76 Nixon's Pledge: Kennedy gains 1 momentum whenever Nixon plays a card not to campaign.
def _pledge(g: GameState, e: Effect, side: str, kind: str) -> None:
    if side == "nixon" and kind != "campaign":
        board.gain_momentum(g, "kennedy", 1)


define("nixons_pledge", EffectRules(on_play=_pledge))
event(76, op("add_effect", effect="nixons_pledge"))

# 6 New England (ruling: New York is the sixth state)
event(6, op("place_support", who="kennedy", n=5, per=2, states=["CT", "MA", "ME", "RI", "VT", "NY"]))

# 7 Late Returns from Cook County: on Election Day Kennedy makes 5 checks for Illinois.
event(7, election_day=(op("support_checks", who="kennedy", state="IL", n=5),))

# 14-17 Gathering Momentum
event(14, op("gathering_momentum", region="south"))
event(15, op("gathering_momentum", region="east"))
event(16, op("gathering_momentum", region="midwest"))
event(17, op("gathering_momentum", region="west"))

# 22 Gaffe
event(22, op("momentum", who="opponent", n=-1), op("token_loss", who="opponent", n=3))

# 35 Harvard Brain Trust: Kennedy +1 CP in every issue contest of the Debates.
DEBATE_BONUS[35] = lambda g, side: 1 if side == "kennedy" else 0
event(35)

# 56 Opposition Research (ruling): Kennedy's hand is shown to Nixon; Nixon takes a 3-CP action.
event(56, op("reveal_hand", whose="kennedy", to="nixon"), op("cp_action", who="nixon", cp=3))
