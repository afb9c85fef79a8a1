"""Names and table talk show as written on every screen, and no name imitates another: the
names and lines an adversarial review found accepted are refused, each with its reason."""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from tyros_protocol.basics import MARKS_PER_LETTER, printable_name, printable_text, skeleton
from tyros_protocol.messages import CLIENT_ADAPTER


def hello(name: str) -> dict[str, object]:
    return {"type": "hello", "id": 1, "protocol": 1, "name": name, "table": "t"}


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("\u3164", "printable characters only"),  # Hangul filler: draws nothing
        ("\u115f", "printable characters only"),  # Hangul choseong filler
        ("\uffa0", "printable characters only"),  # halfwidth Hangul filler
        ("\u2800", "printable characters only"),  # the blank Braille pattern
        ("Ann\u3164", "printable characters only"),  # "Ann" with an invisible tail
        ("A\u2028nn", "printable characters only"),  # a line separator
        ("\u0301\u0301", "a visible letter or sign"),  # marks only
        ("\u0410nn", "mix scripts"),  # a Cyrillic A in a Latin name
        ("B\u03bfb", "mix scripts"),  # a Greek omicron in a Latin name
        ("x" + "\u0301" * (MARKS_PER_LETTER + 1), "accents"),  # (x has no precomposed form)
    ],
)
def test_a_name_that_does_not_show_as_written_or_imitates_is_refused(name: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        printable_name(name)
    with pytest.raises(ValidationError, match=why):
        CLIENT_ADAPTER.validate_python(hello(name))


@pytest.mark.parametrize(
    ("name", "kept"),
    [
        ("Ann", "Ann"),
        ("\uff21\uff4e\uff4e", "Ann"),  # fullwidth letters are letters (NFKC)
        ("Zo\u00eb", "Zo\u00eb"),
        ("\u0410\u043d\u043d\u0430", "\u0410\u043d\u043d\u0430"),  # a Cyrillic name, whole
        ("B0b the 2nd", "B0b the 2nd"),  # digits and spaces are every script's
        ("x\u0301\u0301", "x\u0301\u0301"),  # two accents on a letter are fine
    ],
)
def test_names_of_every_script_are_kept_in_their_compatibility_form(name: str, kept: str) -> None:
    assert printable_name(name) == kept
    message = CLIENT_ADAPTER.validate_python(hello(name))
    assert message.name == kept  # type: ignore[union-attr]


def test_names_that_look_alike_have_one_skeleton() -> None:
    ann = skeleton("Ann")
    assert skeleton("ANN") == skeleton("\u0410nn") == skeleton("\uff21nn") == ann
    assert skeleton("\u0391NN") == ann  # Greek capital alpha
    assert len({skeleton(n) for n in ("Ann", "Anne", "Bob", "Dob", "Cyd")}) == 5


@pytest.mark.parametrize(
    ("seated", "imitation"),
    [
        ("Scam", "Scarn"),  # m and rn, in one script
        ("Paypal", "PayPaI"),  # a capital I for an l
        ("Bob", "B0b"),  # a zero for an o
        ("Will", "WiII"),
        ("Ann", "\U0001d400nn"),  # a mathematical bold A (the whole name compared)
    ],
)
def test_names_that_imitate_one_another_in_one_script_have_one_skeleton(
    seated: str, imitation: str
) -> None:
    assert printable_name(imitation) and skeleton(imitation) == skeleton(seated)


def test_the_skeleton_is_stable_and_keeps_names_apart_that_look_apart() -> None:
    for name in ("Scam", "PayPaI", "\u0410\u043d\u043d\u0430", "Zo\u00eb", "Cyd"):
        assert skeleton(skeleton(name)) == skeleton(name)
    names = ("Sam", "Scam", "Pam", "Zoe", "Zo\u00eb", "Ann", "Anna", "Dan", "Don", "Ida")
    assert len({skeleton(n) for n in names}) == len(names)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("one\u2028two", "printable characters"),  # line separator
        ("one\u2029two", "printable characters"),  # paragraph separator
        ("a" + "\u0301" * 299, "accents"),  # 299 combining marks on one letter
        ("\u3164", "printable characters"),
    ],
)
def test_table_talk_that_would_not_show_as_written_is_refused(text: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        printable_text(text)
    with pytest.raises(ValidationError, match=why):
        CLIENT_ADAPTER.validate_python({"type": "chat", "id": 1, "text": text})


def test_talk_in_any_script_with_a_few_accents_is_kept() -> None:
    for text in ("two green for your violet?", "\u0414\u0430!", "Vi\u1ec7t Nam", "ok \U0001f44d"):
        assert printable_text(f"  {text} ") == text
