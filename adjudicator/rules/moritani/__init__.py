"""Moritani: the defeated ally's card retention and its Karama window (`retention`), the advanced
special Karama (`special`), and the Terror tokens' Extortion with the Mentat Pause (`extortion`)."""
