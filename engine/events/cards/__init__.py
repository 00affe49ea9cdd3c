"""Every card's event script, one module per range of card numbers: card N is in
``cards_LO_HI`` with LO <= N <= HI (`module_of`). Importing this package registers them all."""

import engine.events.primitives  # noqa: F401  (the vocabulary the scripts are checked against)
from engine.data import deck_cards
from engine.events.cards import cards_01_24, cards_25_48, cards_49_72, cards_73_97
from engine.events.script import EVENTS

MODULES = (cards_01_24, cards_25_48, cards_49_72, cards_73_97)


def module_of(card: int) -> str:
    """The module holding card ``card``'s event script."""
    for m in MODULES:
        lo, hi = (int(x) for x in m.__name__.rsplit(".", 1)[1].split("_")[1:])
        if lo <= card <= hi:
            return m.__name__
    raise KeyError(card)


def unimplemented_events(edition: str = "zman") -> list[int]:
    """Card numbers of the edition's deck whose event is not implemented yet."""
    return sorted(n for n in deck_cards(edition) if n not in EVENTS)
