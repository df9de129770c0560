"""A room's refusals and bot names in the language of whoever acts,
numbers in its digits."""

import pytest
from django.utils import translation

from games.errors import Refused
from rooms import actions
from tests.room_helpers import person

pytestmark = pytest.mark.django_db


@pytest.fixture
def room():
    ann = person("Ann")
    return actions.create_room(ann, "Ann"), ann


def test_bots_added_from_a_nepali_page_have_nepali_names(room):
    room, ann = room
    with translation.override("ne"):
        actions.add_bot(room.code, ann, "easy")
        actions.add_bot(room.code, ann, "easy")
    names = sorted(m.name for m in room.members.exclude(bot_level=""))
    assert names == ["सजिलो बोट", "सजिलो बोट २"]


def test_english_bot_names_count_on_from_two(room):
    room, ann = room
    for _ in range(2):
        actions.add_bot(room.code, ann, "hard")
    names = sorted(m.name for m in room.members.exclude(bot_level=""))
    assert names == ["Hard bot", "Hard bot 2"]


def test_refusals_name_their_values_in_nepali_digits(room):
    room, ann = room
    with translation.override("ne"), pytest.raises(Refused) as no_bot:
        actions.remove_bot(room.code, ann, 5)
    assert no_bot.value.message == "सिट ५ मा कुनै बोट छैन"
    with translation.override("ne"), pytest.raises(Refused) as limit:
        actions.deal_round(room.code, ann, "race", "small", 7)
    assert limit.value.message == "समय सीमा ०, ५, १०, १५ मिनेटमध्ये एउटा हुनुपर्छ"
