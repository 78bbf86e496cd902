"""The catalog of object classes of the household simulator.

Every object in a home belongs to a class, named the way VirtualHome names its classes
(``kitchen_counter``, ``food_banana``, ``clothes_pants``, ``coffe_maker`` is a synonym of
``coffee_maker``). The class names and what the properties mean follow VirtualHome's resource
tables (its object properties and object placing tables); the table below is written afresh for
this simulator and covers the household vocabulary of VirtualHome's programs and of the
natural-language plans written for them.

**The table.** :data:`_TABLE` holds one class a line, four fields separated by ``|``::

    name | Category | PROPERTY PROPERTY ... | RELATION destination, RELATION destination, ...

* *name*: the class, ``snake_case``;
* *Category*: one of :data:`CATEGORIES` (``Rooms``, ``Furniture``, ``Food``...);
* *properties*: a space-separated subset of :data:`PROPERTIES` (may be empty);
* *placements*: where an object of the class goes when a home lacks one, in order of preference,
  as ``ON destination`` (the destination has ``SURFACES``) or ``INSIDE destination`` (the
  destination has ``CONTAINERS``). Rooms, structure, body parts, characters and the furniture that
  stands on a room's floor have none (the home puts them there); every ``GRABBABLE`` class has at
  least one, and every list of placements names at least one destination that is not itself
  grabbable, so a chain of placements always ends at something that stays put. ``floor`` is the
  last resort.

Trailing empty fields may be left out; lines starting with ``#`` are comments (the table is
grouped by category). :func:`parse_table` reads it into :data:`CLASSES` at import time and
refuses, naming the line, anything malformed.

**The properties** (what an action needs of its object):

=============  ====================================================================
SURFACES       things can be put on it (Put ... on)
GRABBABLE      the character can pick it up (Grab)
SITTABLE       the character can sit on it (Sit)
LIEABLE        the character can lie on it (Lie)
HANGABLE       it can be hung up on a hook, rack or hanger
DRINKABLE      a drink (Drink)
EATABLE        a food (Eat; Cut needs CUTTABLE too)
RECIPIENT      a vessel a liquid can be poured into, or drunk from (Pour ... into)
CUTTABLE       it can be cut (Cut)
POURABLE       its contents can be poured (Pour)
CAN_OPEN       it opens and closes (Open, Close)
HAS_SWITCH     it switches on and off (SwitchOn, SwitchOff)
READABLE       it can be read (Read)
LOOKABLE       it can be watched or looked at (Watch)
CONTAINERS     things can be put inside it (Put ... in)
CLOTHES        it is worn (PutOn, TakeOff)
PERSON         a person (Greet)
BODY_PART      a part of the character's body
COVER_OBJECT   it covers something (a blanket, a lid, a curtain)
HAS_PLUG       it plugs into an outlet (PlugIn, PlugOut)
HAS_PAPER      it is paper or made of it
MOVABLE        it can be pushed or pulled (Push, Pull)
CREAM          a cream, paste or spread that is applied or spread
=============  ====================================================================

**Synonyms.** :data:`_SYNONYMS` maps other names of the same object to its class (``tv =
television``, ``dishwashingliquid = dish_soap``); a synonym is never a class itself, and names
that VirtualHome keeps apart (``fridge`` and ``freezer``, ``couch`` and ``sofa``, ``phone`` and
``cellphone``) stay separate classes. :func:`canonical` turns a name as a plan spells it into its
class.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PROPERTIES: tuple[str, ...] = (
    "SURFACES",
    "GRABBABLE",
    "SITTABLE",
    "LIEABLE",
    "HANGABLE",
    "DRINKABLE",
    "EATABLE",
    "RECIPIENT",
    "CUTTABLE",
    "POURABLE",
    "CAN_OPEN",
    "HAS_SWITCH",
    "READABLE",
    "LOOKABLE",
    "CONTAINERS",
    "CLOTHES",
    "PERSON",
    "BODY_PART",
    "COVER_OBJECT",
    "HAS_PLUG",
    "HAS_PAPER",
    "MOVABLE",
    "CREAM",
)
"""The 23 object properties."""

CATEGORIES: tuple[str, ...] = (
    "Rooms",
    "Structure",
    "Furniture",
    "Appliances",
    "Electronics",
    "Lamps",
    "Kitchenware",
    "Food",
    "Drinks",
    "Clothes",
    "Toiletries",
    "Cleaning",
    "Stationery",
    "Decor",
    "Props",
    "Body",
    "Characters",
    "Animals",
)
"""The object categories (``Structure``: floor, walls, ceiling, doors, windows, switches)."""

RELATIONS: tuple[str, ...] = ("ON", "INSIDE")
"""The relations of a placement (``ON`` a surface, ``INSIDE`` a container)."""


@dataclass(frozen=True, slots=True)
class ObjectClass:
    """An object class: its name, category, properties and placements.

    Attributes:
        name: the class name (``kitchen_counter``).
        category: one of :data:`CATEGORIES`.
        properties: a subset of :data:`PROPERTIES`.
        places: ``(relation, destination class)`` pairs in order of preference, where an object of
            the class goes when a home lacks it.
    """

    name: str
    category: str
    properties: frozenset[str]
    places: tuple[tuple[str, str], ...] = ()

    def has(self, prop: str) -> bool:
        """Whether the class has property ``prop``.

        >>> CLASSES["cup"].has("RECIPIENT")
        True
        """
        return prop in self.properties


_TABLE = """
# Rooms
bathroom | Rooms
bedroom | Rooms
dining_room | Rooms
entrance_hall | Rooms
home_office | Rooms
kitchen | Rooms
living_room | Rooms

# Structure
floor | Structure | SURFACES
wall | Structure
ceiling | Structure
door | Structure | CAN_OPEN MOVABLE
doorjamb | Structure
window | Structure | CAN_OPEN LOOKABLE
window_sill | Structure | SURFACES
stairs | Structure
light_switch | Structure | HAS_SWITCH
electrical_outlet | Structure | HAS_SWITCH
thermostat | Structure | HAS_SWITCH
doorbell | Structure | HAS_SWITCH
fireplace | Structure | SURFACES
radiator | Structure | SURFACES HAS_SWITCH

# Furniture: seats and beds
bed | Furniture | SURFACES SITTABLE LIEABLE
couch | Furniture | SURFACES SITTABLE LIEABLE MOVABLE
sofa | Furniture | SURFACES SITTABLE LIEABLE MOVABLE
love_seat | Furniture | SURFACES SITTABLE LIEABLE MOVABLE
armchair | Furniture | SURFACES SITTABLE MOVABLE
chair | Furniture | GRABBABLE SITTABLE SURFACES MOVABLE | ON floor
office_chair | Furniture | SITTABLE SURFACES MOVABLE
stool | Furniture | GRABBABLE SITTABLE SURFACES MOVABLE | ON floor
bench | Furniture | SITTABLE LIEABLE SURFACES MOVABLE
piano_bench | Furniture | SITTABLE SURFACES MOVABLE
rocking_chair | Furniture | SITTABLE MOVABLE
ottoman | Furniture | SITTABLE SURFACES MOVABLE
bean_bag | Furniture | SITTABLE LIEABLE MOVABLE
high_chair | Furniture | SITTABLE SURFACES MOVABLE
crib | Furniture | LIEABLE SURFACES CONTAINERS MOVABLE
mattress | Furniture | LIEABLE SITTABLE SURFACES MOVABLE

# Furniture: tables, counters and storage
table | Furniture | SURFACES MOVABLE
coffee_table | Furniture | SURFACES MOVABLE
dining_table | Furniture | SURFACES MOVABLE
kitchen_table | Furniture | SURFACES MOVABLE
side_table | Furniture | SURFACES MOVABLE
desk | Furniture | SURFACES CONTAINERS CAN_OPEN MOVABLE
nightstand | Furniture | SURFACES CONTAINERS CAN_OPEN MOVABLE
dresser | Furniture | SURFACES CONTAINERS CAN_OPEN MOVABLE
closet | Furniture | SURFACES CONTAINERS CAN_OPEN
wardrobe | Furniture | SURFACES CONTAINERS CAN_OPEN
closet_drawer | Furniture | CONTAINERS CAN_OPEN
drawer | Furniture | CONTAINERS CAN_OPEN
bookshelf | Furniture | SURFACES CONTAINERS CAN_OPEN
shelf | Furniture | SURFACES
wall_shelf | Furniture | SURFACES
cupboard | Furniture | SURFACES CONTAINERS CAN_OPEN
cabinet | Furniture | SURFACES CONTAINERS CAN_OPEN
kitchen_cabinet | Furniture | SURFACES CONTAINERS CAN_OPEN
bathroom_cabinet | Furniture | SURFACES CONTAINERS CAN_OPEN
filing_cabinet | Furniture | SURFACES CONTAINERS CAN_OPEN
pantry | Furniture | SURFACES CONTAINERS CAN_OPEN
kitchen_counter | Furniture | SURFACES
kitchen_counter_drawer | Furniture | CONTAINERS CAN_OPEN
bathroom_counter | Furniture | SURFACES
tv_stand | Furniture | SURFACES CONTAINERS MOVABLE
chest | Furniture | SURFACES CONTAINERS CAN_OPEN MOVABLE
toy_box | Furniture | SURFACES CONTAINERS CAN_OPEN MOVABLE
spice_rack | Furniture | SURFACES CONTAINERS
wine_rack | Furniture | SURFACES CONTAINERS
magazine_rack | Furniture | SURFACES CONTAINERS MOVABLE
shoe_rack | Furniture | GRABBABLE SURFACES CONTAINERS MOVABLE | ON floor
coat_rack | Furniture | SURFACES MOVABLE
towel_rack | Furniture | SURFACES
umbrella_stand | Furniture | CONTAINERS MOVABLE
ironing_board | Furniture | GRABBABLE SURFACES MOVABLE | INSIDE closet, ON floor
drying_rack | Furniture | GRABBABLE SURFACES MOVABLE | ON floor
trashcan | Furniture | SURFACES CONTAINERS CAN_OPEN MOVABLE
recycling_bin | Furniture | SURFACES CONTAINERS CAN_OPEN MOVABLE
piano | Furniture | SURFACES
music_stand | Furniture | SURFACES MOVABLE

# Furniture: bathroom and kitchen fixtures
toilet | Furniture | SITTABLE CAN_OPEN CONTAINERS SURFACES
sink | Furniture | SURFACES CONTAINERS RECIPIENT
bathtub | Furniture | SITTABLE LIEABLE CONTAINERS RECIPIENT SURFACES
shower | Furniture | HAS_SWITCH CONTAINERS SURFACES
faucet | Furniture | HAS_SWITCH

# Appliances
fridge | Appliances | CONTAINERS CAN_OPEN HAS_SWITCH HAS_PLUG SURFACES
freezer | Appliances | CONTAINERS CAN_OPEN HAS_SWITCH HAS_PLUG SURFACES
oven | Appliances | CONTAINERS CAN_OPEN HAS_SWITCH HAS_PLUG SURFACES
stove | Appliances | SURFACES CONTAINERS CAN_OPEN HAS_SWITCH HAS_PLUG
stove_fan | Appliances | HAS_SWITCH
microwave | Appliances | CONTAINERS CAN_OPEN HAS_SWITCH HAS_PLUG SURFACES | ON kitchen_counter
coffee_maker | Appliances | CONTAINERS CAN_OPEN RECIPIENT HAS_SWITCH HAS_PLUG SURFACES | ON kitchen_counter
toaster | Appliances | GRABBABLE CONTAINERS HAS_SWITCH HAS_PLUG SURFACES | ON kitchen_counter, INSIDE kitchen_cabinet
toaster_oven | Appliances | GRABBABLE CONTAINERS CAN_OPEN HAS_SWITCH HAS_PLUG SURFACES | ON kitchen_counter
kettle | Appliances | GRABBABLE CONTAINERS CAN_OPEN RECIPIENT POURABLE HAS_SWITCH HAS_PLUG SURFACES | ON kitchen_counter, ON stove
blender | Appliances | GRABBABLE CONTAINERS CAN_OPEN RECIPIENT POURABLE HAS_SWITCH HAS_PLUG SURFACES | ON kitchen_counter, INSIDE kitchen_cabinet
coffee_grinder | Appliances | GRABBABLE CONTAINERS CAN_OPEN HAS_SWITCH HAS_PLUG | ON kitchen_counter, INSIDE kitchen_cabinet
mixer | Appliances | GRABBABLE HAS_SWITCH HAS_PLUG | INSIDE kitchen_cabinet, ON kitchen_counter
juicer | Appliances | GRABBABLE CONTAINERS RECIPIENT HAS_SWITCH HAS_PLUG SURFACES | ON kitchen_counter, INSIDE kitchen_cabinet
food_processor | Appliances | GRABBABLE CONTAINERS CAN_OPEN HAS_SWITCH HAS_PLUG | ON kitchen_counter, INSIDE kitchen_cabinet
rice_cooker | Appliances | GRABBABLE CONTAINERS CAN_OPEN RECIPIENT HAS_SWITCH HAS_PLUG SURFACES | ON kitchen_counter, INSIDE kitchen_cabinet
slow_cooker | Appliances | GRABBABLE CONTAINERS CAN_OPEN RECIPIENT HAS_SWITCH HAS_PLUG SURFACES | ON kitchen_counter, INSIDE kitchen_cabinet
waffle_maker | Appliances | GRABBABLE CAN_OPEN HAS_SWITCH HAS_PLUG | INSIDE kitchen_cabinet, ON kitchen_counter
dishwasher | Appliances | CONTAINERS CAN_OPEN HAS_SWITCH HAS_PLUG SURFACES
washing_machine | Appliances | CONTAINERS CAN_OPEN HAS_SWITCH HAS_PLUG SURFACES
clothes_dryer | Appliances | CONTAINERS CAN_OPEN HAS_SWITCH HAS_PLUG SURFACES
vacuum_cleaner | Appliances | GRABBABLE HAS_SWITCH HAS_PLUG MOVABLE | INSIDE closet, ON floor
iron | Appliances | GRABBABLE HAS_SWITCH HAS_PLUG | ON ironing_board, INSIDE closet
hair_dryer | Appliances | GRABBABLE HAS_SWITCH HAS_PLUG | INSIDE bathroom_cabinet, ON bathroom_counter
electric_shaver | Appliances | GRABBABLE HAS_SWITCH HAS_PLUG | ON bathroom_counter, INSIDE bathroom_cabinet
sewing_machine | Appliances | GRABBABLE HAS_SWITCH HAS_PLUG SURFACES | ON desk, ON table, INSIDE closet
fan | Appliances | GRABBABLE HAS_SWITCH HAS_PLUG MOVABLE | ON floor, ON desk
ceiling_fan | Appliances | HAS_SWITCH
air_conditioner | Appliances | HAS_SWITCH HAS_PLUG
heater | Appliances | GRABBABLE HAS_SWITCH HAS_PLUG MOVABLE | ON floor
humidifier | Appliances | GRABBABLE CONTAINERS RECIPIENT HAS_SWITCH HAS_PLUG | ON nightstand, ON floor
air_purifier | Appliances | HAS_SWITCH HAS_PLUG MOVABLE | ON floor
shredder | Appliances | CONTAINERS HAS_SWITCH HAS_PLUG SURFACES MOVABLE | ON floor

# Electronics
television | Electronics | HAS_SWITCH HAS_PLUG LOOKABLE | ON tv_stand
computer | Electronics | HAS_SWITCH HAS_PLUG LOOKABLE | ON desk
cpu_screen | Electronics | HAS_SWITCH HAS_PLUG LOOKABLE | ON desk
laptop | Electronics | GRABBABLE CAN_OPEN HAS_SWITCH HAS_PLUG LOOKABLE MOVABLE | ON desk, ON coffee_table, ON table
keyboard | Electronics | GRABBABLE HAS_PLUG MOVABLE | ON desk
mouse | Electronics | GRABBABLE HAS_PLUG MOVABLE | ON mousepad, ON desk
mousepad | Electronics | GRABBABLE SURFACES MOVABLE | ON desk
printer | Electronics | CONTAINERS HAS_SWITCH HAS_PLUG HAS_PAPER SURFACES | ON desk
fax_machine | Electronics | HAS_SWITCH HAS_PLUG HAS_PAPER SURFACES | ON desk
scanner | Electronics | CAN_OPEN HAS_SWITCH HAS_PLUG SURFACES | ON desk
router | Electronics | HAS_SWITCH HAS_PLUG | ON desk, ON shelf
phone | Electronics | GRABBABLE HAS_SWITCH HAS_PLUG | ON desk, ON nightstand, ON table
cellphone | Electronics | GRABBABLE HAS_SWITCH HAS_PLUG LOOKABLE | ON nightstand, ON desk, ON coffee_table
tablet | Electronics | GRABBABLE HAS_SWITCH HAS_PLUG LOOKABLE READABLE | ON coffee_table, ON desk, ON nightstand
headset | Electronics | GRABBABLE CLOTHES HAS_SWITCH HAS_PLUG | ON desk, INSIDE desk
remote_control | Electronics | GRABBABLE HAS_SWITCH | ON coffee_table, ON tv_stand, ON couch
radio | Electronics | GRABBABLE HAS_SWITCH HAS_PLUG | ON nightstand, ON kitchen_counter, ON shelf
stereo | Electronics | GRABBABLE CAN_OPEN HAS_SWITCH HAS_PLUG SURFACES | ON tv_stand, ON shelf
cd_player | Electronics | GRABBABLE CONTAINERS CAN_OPEN HAS_SWITCH HAS_PLUG | ON tv_stand, ON shelf
dvd_player | Electronics | GRABBABLE CONTAINERS CAN_OPEN HAS_SWITCH HAS_PLUG | ON tv_stand
record_player | Electronics | GRABBABLE CAN_OPEN HAS_SWITCH HAS_PLUG SURFACES | ON tv_stand, ON shelf
speaker | Electronics | GRABBABLE HAS_SWITCH HAS_PLUG | ON tv_stand, ON shelf, ON floor
amplifier | Electronics | GRABBABLE HAS_SWITCH HAS_PLUG | ON tv_stand, ON shelf
console | Electronics | GRABBABLE HAS_SWITCH HAS_PLUG | ON tv_stand
video_game_console | Electronics | GRABBABLE CONTAINERS CAN_OPEN HAS_SWITCH HAS_PLUG | ON tv_stand
video_game_controller | Electronics | GRABBABLE HAS_SWITCH | ON tv_stand, ON coffee_table, ON couch
video_game | Electronics | GRABBABLE | ON tv_stand, ON shelf
cd | Electronics | GRABBABLE | ON shelf, ON tv_stand
dvd | Electronics | GRABBABLE | ON tv_stand, ON shelf
camera | Electronics | GRABBABLE HAS_SWITCH | ON shelf, ON desk, INSIDE desk
microphone | Electronics | GRABBABLE HAS_SWITCH HAS_PLUG | ON desk
charger | Electronics | GRABBABLE HAS_PLUG | ON nightstand, ON desk
extension_cord | Electronics | GRABBABLE HAS_SWITCH HAS_PLUG | ON floor
battery | Electronics | GRABBABLE | INSIDE desk, INSIDE kitchen_cabinet
usb_drive | Electronics | GRABBABLE | ON desk, INSIDE desk
calculator | Electronics | GRABBABLE HAS_SWITCH | ON desk, INSIDE desk
alarm_clock | Electronics | GRABBABLE HAS_SWITCH HAS_PLUG LOOKABLE | ON nightstand

# Lamps
light | Lamps | HAS_SWITCH
ceiling_lamp | Lamps | HAS_SWITCH
wall_lamp | Lamps | HAS_SWITCH
chandelier | Lamps | HAS_SWITCH
floor_lamp | Lamps | HAS_SWITCH HAS_PLUG MOVABLE
table_lamp | Lamps | GRABBABLE HAS_SWITCH HAS_PLUG MOVABLE | ON nightstand, ON side_table, ON desk
desk_lamp | Lamps | GRABBABLE HAS_SWITCH HAS_PLUG MOVABLE | ON desk
night_light | Lamps | GRABBABLE HAS_SWITCH HAS_PLUG | ON nightstand
light_bulb | Lamps | GRABBABLE MOVABLE | INSIDE kitchen_cabinet, INSIDE cupboard, ON shelf
flashlight | Lamps | GRABBABLE HAS_SWITCH | INSIDE nightstand, INSIDE kitchen_cabinet
lantern | Lamps | GRABBABLE HAS_SWITCH | ON shelf, ON floor

# Kitchenware: dishes and drinkware
plate | Kitchenware | GRABBABLE RECIPIENT SURFACES | INSIDE kitchen_cabinet, ON kitchen_counter, ON dining_table
bowl | Kitchenware | GRABBABLE RECIPIENT CONTAINERS | INSIDE kitchen_cabinet, ON kitchen_counter, ON dining_table
mixing_bowl | Kitchenware | GRABBABLE RECIPIENT CONTAINERS | INSIDE kitchen_cabinet, ON kitchen_counter
saucer | Kitchenware | GRABBABLE SURFACES | INSIDE kitchen_cabinet, ON kitchen_counter
platter | Kitchenware | GRABBABLE SURFACES | INSIDE kitchen_cabinet, ON dining_table
tray | Kitchenware | GRABBABLE SURFACES | ON kitchen_counter, INSIDE kitchen_cabinet
cup | Kitchenware | GRABBABLE RECIPIENT POURABLE | INSIDE kitchen_cabinet, ON kitchen_counter, ON table
mug | Kitchenware | GRABBABLE RECIPIENT POURABLE | INSIDE kitchen_cabinet, ON kitchen_counter, ON desk
coffee_cup | Kitchenware | GRABBABLE RECIPIENT POURABLE | INSIDE kitchen_cabinet, ON kitchen_counter, ON coffee_table
tea_cup | Kitchenware | GRABBABLE RECIPIENT POURABLE | INSIDE kitchen_cabinet, ON kitchen_counter
water_glass | Kitchenware | GRABBABLE RECIPIENT POURABLE | INSIDE kitchen_cabinet, ON kitchen_counter, ON nightstand
drinking_glass | Kitchenware | GRABBABLE RECIPIENT POURABLE | INSIDE kitchen_cabinet, ON kitchen_counter, ON dining_table
wine_glass | Kitchenware | GRABBABLE RECIPIENT POURABLE | INSIDE cupboard, INSIDE kitchen_cabinet, ON dining_table
measuring_cup | Kitchenware | GRABBABLE RECIPIENT POURABLE | INSIDE kitchen_cabinet, ON kitchen_counter
pitcher | Kitchenware | GRABBABLE CONTAINERS RECIPIENT POURABLE | INSIDE fridge, ON kitchen_counter
coffee_pot | Kitchenware | GRABBABLE CONTAINERS CAN_OPEN RECIPIENT POURABLE | ON coffee_maker, ON kitchen_counter
teapot | Kitchenware | GRABBABLE CONTAINERS CAN_OPEN RECIPIENT POURABLE | ON kitchen_counter, ON stove, INSIDE kitchen_cabinet
thermos | Kitchenware | GRABBABLE CAN_OPEN RECIPIENT POURABLE | INSIDE kitchen_cabinet, ON kitchen_counter
bottle | Kitchenware | GRABBABLE CAN_OPEN RECIPIENT POURABLE | INSIDE kitchen_cabinet, INSIDE fridge, ON kitchen_counter
baby_bottle | Kitchenware | GRABBABLE CAN_OPEN RECIPIENT POURABLE | ON kitchen_counter, INSIDE fridge
jar | Kitchenware | GRABBABLE CONTAINERS CAN_OPEN RECIPIENT | INSIDE kitchen_cabinet, ON kitchen_counter
straw | Kitchenware | GRABBABLE | INSIDE kitchen_cabinet

# Kitchenware: cookware and utensils
pot | Kitchenware | GRABBABLE CONTAINERS CAN_OPEN RECIPIENT SURFACES MOVABLE | ON stove, INSIDE kitchen_cabinet
pan | Kitchenware | GRABBABLE RECIPIENT SURFACES MOVABLE | ON stove, INSIDE kitchen_cabinet
frying_pan | Kitchenware | GRABBABLE RECIPIENT SURFACES MOVABLE | ON stove, INSIDE kitchen_cabinet
wok | Kitchenware | GRABBABLE RECIPIENT SURFACES MOVABLE | ON stove, INSIDE kitchen_cabinet
baking_tray | Kitchenware | GRABBABLE SURFACES | INSIDE oven, INSIDE kitchen_cabinet
cutting_board | Kitchenware | GRABBABLE SURFACES | ON kitchen_counter, INSIDE kitchen_cabinet
cutlery_knife | Kitchenware | GRABBABLE | INSIDE kitchen_cabinet, ON kitchen_counter
cutlery_fork | Kitchenware | GRABBABLE | INSIDE kitchen_cabinet, ON kitchen_counter
spoon | Kitchenware | GRABBABLE | INSIDE kitchen_cabinet, ON kitchen_counter
wooden_spoon | Kitchenware | GRABBABLE | INSIDE kitchen_cabinet, ON kitchen_counter
chopsticks | Kitchenware | GRABBABLE | INSIDE kitchen_cabinet, ON kitchen_counter
spatula | Kitchenware | GRABBABLE | INSIDE kitchen_cabinet, ON kitchen_counter
ladle | Kitchenware | GRABBABLE | INSIDE kitchen_cabinet, ON kitchen_counter
whisk | Kitchenware | GRABBABLE | INSIDE kitchen_cabinet, ON kitchen_counter
tongs | Kitchenware | GRABBABLE | INSIDE kitchen_cabinet, ON kitchen_counter
peeler | Kitchenware | GRABBABLE | INSIDE kitchen_cabinet, ON kitchen_counter
grater | Kitchenware | GRABBABLE | INSIDE kitchen_cabinet, ON kitchen_counter
can_opener | Kitchenware | GRABBABLE | INSIDE kitchen_cabinet, ON kitchen_counter
bottle_opener | Kitchenware | GRABBABLE | INSIDE kitchen_cabinet, ON kitchen_counter
corkscrew | Kitchenware | GRABBABLE | INSIDE kitchen_cabinet, ON kitchen_counter
rolling_pin | Kitchenware | GRABBABLE | INSIDE kitchen_cabinet, ON kitchen_counter
colander | Kitchenware | GRABBABLE CONTAINERS RECIPIENT | INSIDE kitchen_cabinet, ON kitchen_counter
funnel | Kitchenware | GRABBABLE RECIPIENT | INSIDE kitchen_cabinet
knife_block | Kitchenware | GRABBABLE CONTAINERS | ON kitchen_counter
dish_rack | Kitchenware | GRABBABLE CONTAINERS SURFACES | ON kitchen_counter
pot_holder | Kitchenware | GRABBABLE HANGABLE | INSIDE kitchen_cabinet, ON kitchen_counter
oven_mitts | Kitchenware | GRABBABLE CLOTHES HANGABLE | ON kitchen_counter, INSIDE kitchen_cabinet
kitchen_timer | Kitchenware | GRABBABLE HAS_SWITCH | ON kitchen_counter
kitchen_scale | Kitchenware | GRABBABLE HAS_SWITCH SURFACES | ON kitchen_counter, INSIDE kitchen_cabinet
ice_cube_tray | Kitchenware | GRABBABLE RECIPIENT | INSIDE freezer

# Kitchenware: table and storage
placemat | Kitchenware | GRABBABLE SURFACES COVER_OBJECT | ON dining_table, ON kitchen_table, INSIDE kitchen_cabinet
coaster | Kitchenware | GRABBABLE SURFACES | ON coffee_table, ON table
napkin | Kitchenware | GRABBABLE COVER_OBJECT HAS_PAPER | ON dining_table, INSIDE kitchen_cabinet
lid | Kitchenware | GRABBABLE COVER_OBJECT | INSIDE kitchen_cabinet, ON kitchen_counter
aluminum_foil | Kitchenware | GRABBABLE COVER_OBJECT | INSIDE kitchen_cabinet
plastic_wrap | Kitchenware | GRABBABLE COVER_OBJECT | INSIDE kitchen_cabinet
storage_container | Kitchenware | GRABBABLE CONTAINERS CAN_OPEN | INSIDE kitchen_cabinet, INSIDE fridge
lunch_box | Kitchenware | GRABBABLE CONTAINERS CAN_OPEN | ON kitchen_counter, INSIDE fridge
cookie_jar | Kitchenware | GRABBABLE CONTAINERS CAN_OPEN | ON kitchen_counter
bread_box | Kitchenware | GRABBABLE CONTAINERS CAN_OPEN SURFACES | ON kitchen_counter
sugar_bowl | Kitchenware | GRABBABLE CONTAINERS CAN_OPEN | ON kitchen_counter, INSIDE kitchen_cabinet
salt_shaker | Kitchenware | GRABBABLE POURABLE | ON dining_table, ON kitchen_counter, INSIDE kitchen_cabinet
pepper_shaker | Kitchenware | GRABBABLE POURABLE | ON dining_table, ON kitchen_counter, INSIDE kitchen_cabinet
condiment_shaker | Kitchenware | GRABBABLE POURABLE | INSIDE kitchen_cabinet, ON kitchen_counter
condiment_bottle | Kitchenware | GRABBABLE CAN_OPEN POURABLE | INSIDE fridge, ON kitchen_counter
coffee_filter | Kitchenware | GRABBABLE HAS_PAPER | INSIDE kitchen_cabinet, INSIDE coffee_maker

# Food: fruit and vegetables
food_fruit | Food | GRABBABLE EATABLE CUTTABLE | ON kitchen_counter, INSIDE fridge
food_apple | Food | GRABBABLE EATABLE CUTTABLE | ON kitchen_counter, INSIDE fridge
food_banana | Food | GRABBABLE EATABLE CUTTABLE | ON kitchen_counter
food_orange | Food | GRABBABLE EATABLE CUTTABLE | ON kitchen_counter, INSIDE fridge
food_lemon | Food | GRABBABLE EATABLE CUTTABLE | INSIDE fridge, ON kitchen_counter
lime | Food | GRABBABLE EATABLE CUTTABLE | INSIDE fridge, ON kitchen_counter
food_kiwi | Food | GRABBABLE EATABLE CUTTABLE | ON kitchen_counter, INSIDE fridge
food_pear | Food | GRABBABLE EATABLE CUTTABLE | ON kitchen_counter, INSIDE fridge
peach | Food | GRABBABLE EATABLE CUTTABLE | ON kitchen_counter, INSIDE fridge
plum | Food | GRABBABLE EATABLE CUTTABLE | ON kitchen_counter, INSIDE fridge
food_grapes | Food | GRABBABLE EATABLE | INSIDE fridge, ON kitchen_counter
food_strawberry | Food | GRABBABLE EATABLE CUTTABLE | INSIDE fridge
food_pineapple | Food | GRABBABLE EATABLE CUTTABLE | ON kitchen_counter
food_mango | Food | GRABBABLE EATABLE CUTTABLE | ON kitchen_counter, INSIDE fridge
food_avocado | Food | GRABBABLE EATABLE CUTTABLE | ON kitchen_counter, INSIDE fridge
watermelon | Food | GRABBABLE EATABLE CUTTABLE | INSIDE fridge, ON kitchen_counter
food_vegetable | Food | GRABBABLE EATABLE CUTTABLE | INSIDE fridge, ON kitchen_counter
food_tomato | Food | GRABBABLE EATABLE CUTTABLE | INSIDE fridge, ON kitchen_counter
food_lettuce | Food | GRABBABLE EATABLE CUTTABLE | INSIDE fridge
food_cucumber | Food | GRABBABLE EATABLE CUTTABLE | INSIDE fridge
food_carrot | Food | GRABBABLE EATABLE CUTTABLE | INSIDE fridge
food_celery | Food | GRABBABLE EATABLE CUTTABLE | INSIDE fridge
food_broccoli | Food | GRABBABLE EATABLE CUTTABLE | INSIDE fridge
food_pepper | Food | GRABBABLE EATABLE CUTTABLE | INSIDE fridge
food_mushroom | Food | GRABBABLE EATABLE CUTTABLE | INSIDE fridge
food_corn | Food | GRABBABLE EATABLE CUTTABLE | INSIDE fridge
food_onion | Food | GRABBABLE EATABLE CUTTABLE | ON kitchen_counter, INSIDE kitchen_cabinet
food_garlic | Food | GRABBABLE EATABLE CUTTABLE | ON kitchen_counter, INSIDE kitchen_cabinet
food_potato | Food | GRABBABLE EATABLE CUTTABLE | INSIDE kitchen_cabinet, ON kitchen_counter

# Food: bread, sweets and dishes
food_food | Food | GRABBABLE EATABLE CUTTABLE MOVABLE | INSIDE fridge, ON kitchen_counter
food_bread | Food | GRABBABLE EATABLE CUTTABLE | ON kitchen_counter, INSIDE kitchen_cabinet
bread_slice | Food | GRABBABLE EATABLE CUTTABLE | ON kitchen_counter
food_toast | Food | GRABBABLE EATABLE CUTTABLE | ON kitchen_counter
food_bagel | Food | GRABBABLE EATABLE CUTTABLE | ON kitchen_counter, INSIDE kitchen_cabinet
food_muffin | Food | GRABBABLE EATABLE CUTTABLE | ON kitchen_counter, INSIDE kitchen_cabinet
cupcake | Food | GRABBABLE EATABLE | ON kitchen_counter, INSIDE fridge
pancake | Food | GRABBABLE EATABLE CUTTABLE | ON kitchen_counter, INSIDE fridge
food_cake | Food | GRABBABLE EATABLE CUTTABLE | INSIDE fridge, ON kitchen_counter
pie | Food | GRABBABLE EATABLE CUTTABLE | ON kitchen_counter, INSIDE fridge
food_cookie | Food | GRABBABLE EATABLE | INSIDE kitchen_cabinet, ON kitchen_counter
food_donut | Food | GRABBABLE EATABLE CUTTABLE | ON kitchen_counter, INSIDE kitchen_cabinet
food_dessert | Food | GRABBABLE EATABLE CUTTABLE | INSIDE fridge
pudding | Food | GRABBABLE EATABLE | INSIDE fridge
food_ice_cream | Food | GRABBABLE EATABLE | INSIDE freezer
food_candy | Food | GRABBABLE EATABLE | INSIDE kitchen_cabinet, ON coffee_table
food_chocolate | Food | GRABBABLE EATABLE CUTTABLE | INSIDE kitchen_cabinet, INSIDE fridge
food_snack | Food | GRABBABLE EATABLE | INSIDE kitchen_cabinet
chips | Food | GRABBABLE EATABLE | INSIDE kitchen_cabinet
salt_crackers | Food | GRABBABLE EATABLE | INSIDE kitchen_cabinet
food_nuts | Food | GRABBABLE EATABLE | INSIDE kitchen_cabinet
food_popcorn | Food | GRABBABLE EATABLE | INSIDE kitchen_cabinet
cereal | Food | GRABBABLE EATABLE POURABLE | INSIDE kitchen_cabinet
food_oatmeal | Food | GRABBABLE EATABLE POURABLE | INSIDE kitchen_cabinet
food_rice | Food | GRABBABLE EATABLE POURABLE | INSIDE kitchen_cabinet
food_noodles | Food | GRABBABLE EATABLE | INSIDE kitchen_cabinet
pasta | Food | GRABBABLE EATABLE | INSIDE kitchen_cabinet
food_beans | Food | GRABBABLE EATABLE | INSIDE kitchen_cabinet
canned_food | Food | GRABBABLE EATABLE CAN_OPEN | INSIDE kitchen_cabinet
soup | Food | GRABBABLE EATABLE POURABLE | INSIDE fridge, INSIDE kitchen_cabinet
salad | Food | GRABBABLE EATABLE | INSIDE fridge
food_sandwich | Food | GRABBABLE EATABLE CUTTABLE | INSIDE fridge, ON kitchen_counter
food_hamburger | Food | GRABBABLE EATABLE CUTTABLE | INSIDE fridge, ON kitchen_counter
food_pizza | Food | GRABBABLE EATABLE CUTTABLE | INSIDE fridge, INSIDE freezer
takeout_food | Food | GRABBABLE EATABLE | INSIDE fridge, ON dining_table

# Food: dairy, meat and fish
food_egg | Food | GRABBABLE EATABLE | INSIDE fridge
food_cheese | Food | GRABBABLE EATABLE CUTTABLE | INSIDE fridge
food_butter | Food | GRABBABLE EATABLE CUTTABLE CREAM | INSIDE fridge
food_yogurt | Food | GRABBABLE EATABLE | INSIDE fridge
food_bacon | Food | GRABBABLE EATABLE CUTTABLE | INSIDE fridge
food_ham | Food | GRABBABLE EATABLE CUTTABLE | INSIDE fridge
food_sausage | Food | GRABBABLE EATABLE CUTTABLE | INSIDE fridge
food_chicken | Food | GRABBABLE EATABLE CUTTABLE | INSIDE fridge, INSIDE freezer
food_turkey | Food | GRABBABLE EATABLE CUTTABLE | INSIDE fridge, INSIDE freezer
food_steak | Food | GRABBABLE EATABLE CUTTABLE | INSIDE fridge, INSIDE freezer
minced_meat | Food | GRABBABLE EATABLE | INSIDE fridge, INSIDE freezer
food_fish | Food | GRABBABLE EATABLE CUTTABLE | INSIDE fridge, INSIDE freezer
salmon | Food | GRABBABLE EATABLE CUTTABLE | INSIDE fridge, INSIDE freezer
food_shrimp | Food | GRABBABLE EATABLE | INSIDE freezer, INSIDE fridge

# Food: pantry, spreads and condiments
food_sugar | Food | GRABBABLE EATABLE POURABLE | INSIDE kitchen_cabinet, ON kitchen_counter
food_salt | Food | GRABBABLE EATABLE POURABLE | INSIDE kitchen_cabinet, ON kitchen_counter
food_flour | Food | GRABBABLE POURABLE | INSIDE kitchen_cabinet
food_spices | Food | GRABBABLE POURABLE | INSIDE kitchen_cabinet, INSIDE spice_rack
food_honey | Food | GRABBABLE EATABLE POURABLE CAN_OPEN | INSIDE kitchen_cabinet
food_jam | Food | GRABBABLE EATABLE CAN_OPEN CREAM | INSIDE fridge, INSIDE kitchen_cabinet
food_peanut_butter | Food | GRABBABLE EATABLE CAN_OPEN CREAM | INSIDE kitchen_cabinet, INSIDE fridge
food_ketchup | Food | GRABBABLE EATABLE POURABLE | INSIDE fridge
food_mustard | Food | GRABBABLE EATABLE POURABLE | INSIDE fridge
food_mayonnaise | Food | GRABBABLE EATABLE CREAM | INSIDE fridge
sauce | Food | GRABBABLE EATABLE POURABLE | INSIDE fridge, INSIDE kitchen_cabinet
chocolate_syrup | Food | GRABBABLE EATABLE POURABLE | INSIDE fridge, INSIDE kitchen_cabinet
cooking_oil | Food | GRABBABLE POURABLE | INSIDE kitchen_cabinet, ON kitchen_counter
vinegar | Food | GRABBABLE POURABLE | INSIDE kitchen_cabinet
ice | Food | GRABBABLE EATABLE | INSIDE freezer
groceries | Food | GRABBABLE MOVABLE | ON kitchen_counter, INSIDE fridge
pet_food | Food | GRABBABLE POURABLE | INSIDE kitchen_cabinet, INSIDE pantry

# Drinks
water | Drinks | DRINKABLE POURABLE | INSIDE fridge
milk | Drinks | GRABBABLE DRINKABLE POURABLE | INSIDE fridge
juice | Drinks | GRABBABLE DRINKABLE POURABLE | INSIDE fridge
lemonade | Drinks | GRABBABLE DRINKABLE POURABLE | INSIDE fridge
soda | Drinks | GRABBABLE DRINKABLE POURABLE | INSIDE fridge, INSIDE kitchen_cabinet
energy_drink | Drinks | GRABBABLE DRINKABLE POURABLE | INSIDE fridge
smoothie | Drinks | GRABBABLE DRINKABLE POURABLE | INSIDE fridge
milkshake | Drinks | GRABBABLE DRINKABLE POURABLE | INSIDE fridge
water_bottle | Drinks | GRABBABLE CAN_OPEN DRINKABLE RECIPIENT POURABLE | INSIDE fridge, ON kitchen_counter
coffee | Drinks | GRABBABLE DRINKABLE POURABLE | INSIDE kitchen_cabinet, ON kitchen_counter
tea | Drinks | GRABBABLE DRINKABLE POURABLE | INSIDE kitchen_cabinet
hot_chocolate | Drinks | GRABBABLE DRINKABLE POURABLE | INSIDE kitchen_cabinet
ground_coffee | Drinks | GRABBABLE POURABLE | INSIDE kitchen_cabinet
coffee_beans | Drinks | GRABBABLE POURABLE | INSIDE kitchen_cabinet
tea_bag | Drinks | GRABBABLE | INSIDE kitchen_cabinet
beer | Drinks | GRABBABLE DRINKABLE POURABLE | INSIDE fridge
wine | Drinks | GRABBABLE DRINKABLE POURABLE | INSIDE cupboard, INSIDE fridge, INSIDE wine_rack
champagne | Drinks | GRABBABLE DRINKABLE POURABLE | INSIDE fridge, INSIDE wine_rack
alcohol | Drinks | GRABBABLE DRINKABLE POURABLE | INSIDE kitchen_cabinet, INSIDE cupboard
whiskey | Drinks | GRABBABLE DRINKABLE POURABLE | INSIDE kitchen_cabinet, INSIDE cupboard
vodka | Drinks | GRABBABLE DRINKABLE POURABLE | INSIDE freezer, INSIDE kitchen_cabinet

# Clothes
clothes_shirt | Clothes | GRABBABLE CLOTHES HANGABLE | INSIDE closet, INSIDE dresser, ON bed
clothes_pants | Clothes | GRABBABLE CLOTHES HANGABLE MOVABLE | INSIDE dresser, INSIDE closet, ON bed
clothes_shorts | Clothes | GRABBABLE CLOTHES | INSIDE dresser, INSIDE closet
clothes_skirt | Clothes | GRABBABLE CLOTHES HANGABLE | INSIDE closet, INSIDE dresser
clothes_dress | Clothes | GRABBABLE CLOTHES HANGABLE | INSIDE closet, INSIDE dresser
clothes_blouse | Clothes | GRABBABLE CLOTHES HANGABLE | INSIDE closet, INSIDE dresser
clothes_sweater | Clothes | GRABBABLE CLOTHES HANGABLE | INSIDE dresser, INSIDE closet
clothes_hoodie | Clothes | GRABBABLE CLOTHES HANGABLE | INSIDE dresser, INSIDE closet
clothes_vest | Clothes | GRABBABLE CLOTHES HANGABLE | INSIDE closet, INSIDE dresser
clothes_suit | Clothes | GRABBABLE CLOTHES HANGABLE | INSIDE closet
clothes_uniform | Clothes | GRABBABLE CLOTHES HANGABLE | INSIDE closet
clothes_jacket | Clothes | GRABBABLE CLOTHES HANGABLE | INSIDE closet, ON coat_rack
clothes_coat | Clothes | GRABBABLE CLOTHES HANGABLE | INSIDE closet, ON coat_rack
clothes_raincoat | Clothes | GRABBABLE CLOTHES HANGABLE | INSIDE closet, ON coat_rack
clothes_robe | Clothes | GRABBABLE CLOTHES HANGABLE | INSIDE closet, ON towel_rack
clothes_swimsuit | Clothes | GRABBABLE CLOTHES | INSIDE dresser, INSIDE closet
clothes_underwear | Clothes | GRABBABLE CLOTHES | INSIDE dresser
clothes_socks | Clothes | GRABBABLE CLOTHES | INSIDE dresser
clothes_tie | Clothes | GRABBABLE CLOTHES HANGABLE | INSIDE closet, INSIDE dresser
clothes_belt | Clothes | GRABBABLE CLOTHES HANGABLE | INSIDE closet, INSIDE dresser
clothes_hat | Clothes | GRABBABLE CLOTHES HANGABLE | INSIDE closet, ON coat_rack
clothes_scarf | Clothes | GRABBABLE CLOTHES HANGABLE | INSIDE dresser, INSIDE closet, ON coat_rack
clothes_gloves | Clothes | GRABBABLE CLOTHES | INSIDE dresser, INSIDE closet
pajamas | Clothes | GRABBABLE CLOTHES | INSIDE dresser, ON bed
apron | Clothes | GRABBABLE CLOTHES HANGABLE | INSIDE closet, ON kitchen_counter
shoes | Clothes | GRABBABLE CLOTHES MOVABLE | ON shoe_rack, INSIDE closet, ON floor
boots | Clothes | GRABBABLE CLOTHES MOVABLE | ON shoe_rack, INSIDE closet, ON floor
sneakers | Clothes | GRABBABLE CLOTHES MOVABLE | ON shoe_rack, INSIDE closet, ON floor
sandals | Clothes | GRABBABLE CLOTHES MOVABLE | ON shoe_rack, INSIDE closet, ON floor
slippers | Clothes | GRABBABLE CLOTHES MOVABLE | ON floor, ON shoe_rack
spectacles | Clothes | GRABBABLE CLOTHES | ON nightstand, ON desk
sunglasses | Clothes | GRABBABLE CLOTHES | ON dresser, ON nightstand
watch | Clothes | GRABBABLE CLOTHES LOOKABLE | ON nightstand, INSIDE dresser
jewelry | Clothes | GRABBABLE CLOTHES | ON dresser, INSIDE dresser
necklace | Clothes | GRABBABLE CLOTHES HANGABLE | INSIDE dresser, ON dresser
bracelet | Clothes | GRABBABLE CLOTHES | INSIDE dresser, ON dresser
earrings | Clothes | GRABBABLE CLOTHES | INSIDE dresser, ON dresser
ring | Clothes | GRABBABLE CLOTHES | INSIDE dresser, ON nightstand
clothes_pile | Clothes | GRABBABLE MOVABLE | INSIDE basket_for_clothes, ON floor
hanger | Clothes | GRABBABLE HANGABLE SURFACES | INSIDE closet

# Toiletries
toothbrush | Toiletries | GRABBABLE | ON bathroom_counter, INSIDE bathroom_cabinet
electric_toothbrush | Toiletries | GRABBABLE HAS_SWITCH HAS_PLUG | ON bathroom_counter
toothbrush_holder | Toiletries | GRABBABLE CONTAINERS | ON bathroom_counter
tooth_paste | Toiletries | GRABBABLE CAN_OPEN CREAM | ON bathroom_counter, INSIDE bathroom_cabinet
dental_floss | Toiletries | GRABBABLE | INSIDE bathroom_cabinet, ON bathroom_counter
mouthwash | Toiletries | GRABBABLE CAN_OPEN POURABLE | ON bathroom_counter, INSIDE bathroom_cabinet
soap | Toiletries | GRABBABLE | ON sink, ON bathroom_counter
soap_dispenser | Toiletries | GRABBABLE CONTAINERS POURABLE | ON bathroom_counter, ON sink
body_wash | Toiletries | GRABBABLE CAN_OPEN POURABLE | INSIDE shower, INSIDE bathroom_cabinet
shampoo | Toiletries | GRABBABLE CAN_OPEN POURABLE | INSIDE bathroom_cabinet, INSIDE shower, ON bathroom_counter
conditioner | Toiletries | GRABBABLE CAN_OPEN POURABLE | INSIDE bathroom_cabinet, INSIDE shower
lotionbottle | Toiletries | GRABBABLE CAN_OPEN POURABLE CREAM | ON bathroom_counter, INSIDE bathroom_cabinet, ON nightstand
face_cream | Toiletries | GRABBABLE CAN_OPEN CREAM | ON bathroom_counter, INSIDE bathroom_cabinet
sunscreen | Toiletries | GRABBABLE CAN_OPEN CREAM | INSIDE bathroom_cabinet, ON bathroom_counter
lip_balm | Toiletries | GRABBABLE CREAM | ON nightstand, INSIDE bathroom_cabinet
shaving_cream | Toiletries | GRABBABLE CREAM | ON bathroom_counter, INSIDE bathroom_cabinet
after_shave | Toiletries | GRABBABLE CAN_OPEN POURABLE CREAM | ON bathroom_counter, INSIDE bathroom_cabinet
razor | Toiletries | GRABBABLE | INSIDE bathroom_cabinet, ON bathroom_counter
deodorant | Toiletries | GRABBABLE CREAM | ON bathroom_counter, INSIDE bathroom_cabinet
perfume | Toiletries | GRABBABLE POURABLE | ON dresser, ON bathroom_counter
hair_product | Toiletries | GRABBABLE CREAM | ON bathroom_counter, INSIDE bathroom_cabinet
hair_brush | Toiletries | GRABBABLE | ON bathroom_counter, ON dresser
comb | Toiletries | GRABBABLE | ON bathroom_counter, ON dresser
makeup | Toiletries | GRABBABLE CREAM | ON dresser, ON bathroom_counter
foundation | Toiletries | GRABBABLE CAN_OPEN CREAM | ON bathroom_counter, INSIDE bathroom_cabinet, ON dresser
lipstick | Toiletries | GRABBABLE CREAM | ON dresser, ON bathroom_counter
mascara | Toiletries | GRABBABLE | ON dresser, ON bathroom_counter
nail_polish | Toiletries | GRABBABLE CAN_OPEN POURABLE | INSIDE bathroom_cabinet, ON dresser
nail_clippers | Toiletries | GRABBABLE | INSIDE bathroom_cabinet
tweezers | Toiletries | GRABBABLE | INSIDE bathroom_cabinet
cotton_swabs | Toiletries | GRABBABLE | INSIDE bathroom_cabinet
cotton_balls | Toiletries | GRABBABLE | INSIDE bathroom_cabinet
contact_lenses | Toiletries | GRABBABLE | ON bathroom_counter, INSIDE bathroom_cabinet
toilet_paper | Toiletries | GRABBABLE HAS_PAPER | ON toilet, INSIDE bathroom_cabinet
tissues | Toiletries | GRABBABLE HAS_PAPER | ON nightstand, ON coffee_table, ON bathroom_counter
wet_wipes | Toiletries | GRABBABLE HAS_PAPER | INSIDE bathroom_cabinet, ON bathroom_counter
towel | Toiletries | GRABBABLE HANGABLE COVER_OBJECT | ON towel_rack, INSIDE bathroom_cabinet, INSIDE closet
washcloth | Toiletries | GRABBABLE HANGABLE | ON towel_rack, INSIDE bathroom_cabinet
bath_sponge | Toiletries | GRABBABLE | INSIDE shower, ON bathroom_counter
bathroom_scale | Toiletries | GRABBABLE SURFACES | ON floor
medicine | Toiletries | GRABBABLE EATABLE | INSIDE bathroom_cabinet, INSIDE kitchen_cabinet
pills | Toiletries | GRABBABLE EATABLE | INSIDE bathroom_cabinet, ON nightstand
vitamins | Toiletries | GRABBABLE EATABLE | INSIDE kitchen_cabinet, INSIDE bathroom_cabinet
band_aids | Toiletries | GRABBABLE | INSIDE bathroom_cabinet
first_aid_kit | Toiletries | GRABBABLE CONTAINERS CAN_OPEN | INSIDE bathroom_cabinet, INSIDE closet
thermometer | Toiletries | GRABBABLE HAS_SWITCH | INSIDE bathroom_cabinet
diaper | Toiletries | GRABBABLE CLOTHES | INSIDE dresser, INSIDE bathroom_cabinet

# Cleaning
cleaning_solution | Cleaning | GRABBABLE CAN_OPEN POURABLE | INSIDE bathroom_cabinet, INSIDE kitchen_cabinet
dish_soap | Cleaning | GRABBABLE CAN_OPEN POURABLE | ON sink, ON kitchen_counter
dishwasher_detergent | Cleaning | GRABBABLE CAN_OPEN POURABLE | INSIDE kitchen_cabinet, ON kitchen_counter
laundry_detergent | Cleaning | GRABBABLE CAN_OPEN POURABLE | ON washing_machine, INSIDE cupboard
fabric_softener | Cleaning | GRABBABLE CAN_OPEN POURABLE | ON washing_machine, INSIDE cupboard
bleach | Cleaning | GRABBABLE CAN_OPEN POURABLE | INSIDE cupboard, INSIDE bathroom_cabinet
disinfectant | Cleaning | GRABBABLE CAN_OPEN POURABLE | INSIDE bathroom_cabinet, INSIDE kitchen_cabinet
glass_cleaner | Cleaning | GRABBABLE POURABLE | INSIDE cupboard, INSIDE kitchen_cabinet
furniture_polish | Cleaning | GRABBABLE POURABLE | INSIDE cupboard, INSIDE kitchen_cabinet
spray_bottle | Cleaning | GRABBABLE RECIPIENT POURABLE | INSIDE cupboard, INSIDE kitchen_cabinet
air_freshener | Cleaning | GRABBABLE | ON bathroom_counter, INSIDE cupboard
sponge | Cleaning | GRABBABLE | ON sink, ON kitchen_counter
rag | Cleaning | GRABBABLE | ON sink, INSIDE bathroom_cabinet, ON kitchen_counter
dish_towel | Cleaning | GRABBABLE HANGABLE | ON kitchen_counter, INSIDE kitchen_cabinet
paper_towel | Cleaning | GRABBABLE HAS_PAPER | ON kitchen_counter, INSIDE kitchen_cabinet
duster | Cleaning | GRABBABLE | INSIDE closet, INSIDE cupboard
broom | Cleaning | GRABBABLE MOVABLE | INSIDE closet, ON floor
dustpan | Cleaning | GRABBABLE | INSIDE closet, ON floor
mop | Cleaning | GRABBABLE MOVABLE | INSIDE closet, ON floor
mop_bucket | Cleaning | GRABBABLE CONTAINERS RECIPIENT SURFACES MOVABLE | INSIDE closet, ON floor
bucket | Cleaning | GRABBABLE CONTAINERS RECIPIENT SURFACES MOVABLE | INSIDE closet, ON floor
brush | Cleaning | GRABBABLE | INSIDE cupboard, ON bathroom_counter
scrub_brush | Cleaning | GRABBABLE | ON sink, INSIDE cupboard
toilet_brush | Cleaning | GRABBABLE | ON floor
plunger | Cleaning | GRABBABLE | ON floor
rubber_gloves | Cleaning | GRABBABLE CLOTHES | ON kitchen_counter, INSIDE kitchen_cabinet
trash_bag | Cleaning | GRABBABLE CONTAINERS | INSIDE kitchen_cabinet, INSIDE trashcan
lint_roller | Cleaning | GRABBABLE | INSIDE closet, INSIDE dresser
clothespin | Cleaning | GRABBABLE | INSIDE closet, INSIDE cupboard
basket_for_clothes | Cleaning | GRABBABLE CONTAINERS CAN_OPEN SURFACES MOVABLE | ON floor, INSIDE closet
shoe_shine_kit | Cleaning | GRABBABLE CONTAINERS CAN_OPEN | INSIDE closet, ON shoe_rack
shoe_polish | Cleaning | GRABBABLE CAN_OPEN CREAM | INSIDE closet, INSIDE cupboard

# Stationery: reading matter
book | Stationery | GRABBABLE READABLE CAN_OPEN HAS_PAPER | ON bookshelf, ON desk, ON nightstand
novel | Stationery | GRABBABLE READABLE CAN_OPEN HAS_PAPER | ON bookshelf, ON nightstand
textbook | Stationery | GRABBABLE READABLE CAN_OPEN HAS_PAPER | ON desk, ON bookshelf
cookbook | Stationery | GRABBABLE READABLE CAN_OPEN HAS_PAPER | ON bookshelf, ON kitchen_counter
coloring_book | Stationery | GRABBABLE READABLE CAN_OPEN HAS_PAPER | ON bookshelf, ON desk
sketchbook | Stationery | GRABBABLE READABLE CAN_OPEN HAS_PAPER | ON desk, ON bookshelf
notebook | Stationery | GRABBABLE READABLE CAN_OPEN HAS_PAPER | ON desk, INSIDE desk
address_book | Stationery | GRABBABLE READABLE CAN_OPEN HAS_PAPER | ON desk, INSIDE desk
diary | Stationery | GRABBABLE READABLE CAN_OPEN HAS_PAPER | ON nightstand, INSIDE nightstand
checkbook | Stationery | GRABBABLE READABLE CAN_OPEN HAS_PAPER | INSIDE desk, ON desk
binder | Stationery | GRABBABLE READABLE CAN_OPEN CONTAINERS HAS_PAPER | ON bookshelf, ON desk
homework | Stationery | GRABBABLE READABLE HAS_PAPER | ON desk
magazine | Stationery | GRABBABLE READABLE CAN_OPEN HAS_PAPER | ON coffee_table, INSIDE magazine_rack
newspaper | Stationery | GRABBABLE READABLE HAS_PAPER | ON coffee_table, ON table
mail | Stationery | GRABBABLE READABLE CAN_OPEN HAS_PAPER | ON table, ON desk
letter | Stationery | GRABBABLE READABLE HAS_PAPER | ON desk, ON table
postcard | Stationery | GRABBABLE READABLE HAS_PAPER | ON desk, ON fridge
greeting_card | Stationery | GRABBABLE READABLE CAN_OPEN HAS_PAPER | ON shelf, ON desk
check | Stationery | GRABBABLE READABLE HAS_PAPER | ON desk, INSIDE desk
bills | Stationery | GRABBABLE READABLE HAS_PAPER | ON desk, INSIDE desk
receipt | Stationery | GRABBABLE READABLE HAS_PAPER | ON desk, INSIDE desk
documents | Stationery | GRABBABLE READABLE HAS_PAPER | INSIDE filing_cabinet, ON desk
calendar | Stationery | GRABBABLE READABLE HAS_PAPER | ON desk, ON kitchen_counter
recipe | Stationery | GRABBABLE READABLE HAS_PAPER | ON kitchen_counter, INSIDE kitchen_cabinet
sheet_music | Stationery | GRABBABLE READABLE HAS_PAPER | ON piano, ON music_stand, ON shelf
map | Stationery | GRABBABLE READABLE LOOKABLE HAS_PAPER | INSIDE desk, ON bookshelf

# Stationery: paper and supplies
paper | Stationery | GRABBABLE HAS_PAPER | ON desk, INSIDE printer, INSIDE desk
notepad | Stationery | GRABBABLE READABLE HAS_PAPER | ON desk, ON kitchen_counter
sticky_notes | Stationery | GRABBABLE HAS_PAPER | ON desk, INSIDE desk
envelope | Stationery | GRABBABLE CONTAINERS CAN_OPEN HAS_PAPER | INSIDE desk, ON desk
folder | Stationery | GRABBABLE CONTAINERS CAN_OPEN SURFACES HAS_PAPER | INSIDE filing_cabinet, ON desk
clipboard | Stationery | GRABBABLE SURFACES | ON desk
bookmark | Stationery | GRABBABLE HAS_PAPER | INSIDE desk, ON desk
wrapping_paper | Stationery | GRABBABLE COVER_OBJECT HAS_PAPER | INSIDE closet
stamp | Stationery | GRABBABLE HAS_PAPER | INSIDE desk
pen | Stationery | GRABBABLE | ON desk, INSIDE desk
pencil | Stationery | GRABBABLE | ON desk, INSIDE desk
marker | Stationery | GRABBABLE | ON desk, INSIDE desk
highlighter | Stationery | GRABBABLE | ON desk, INSIDE desk
crayons | Stationery | GRABBABLE | ON desk, INSIDE toy_box
eraser | Stationery | GRABBABLE | ON desk, INSIDE desk
pencil_sharpener | Stationery | GRABBABLE | ON desk, INSIDE desk
ruler | Stationery | GRABBABLE | INSIDE desk, ON desk
scissors | Stationery | GRABBABLE | INSIDE desk, INSIDE kitchen_cabinet
stapler | Stationery | GRABBABLE | ON desk
paper_clip | Stationery | GRABBABLE | INSIDE desk
tape | Stationery | GRABBABLE | INSIDE desk, ON desk
glue | Stationery | GRABBABLE CAN_OPEN | INSIDE desk, ON desk

# Decor
picture | Decor | GRABBABLE LOOKABLE HANGABLE | ON shelf, ON desk, ON nightstand
photoframe | Decor | GRABBABLE LOOKABLE | ON bookshelf, ON shelf, ON nightstand
wall_picture_frame | Decor | LOOKABLE HANGABLE
painting | Decor | LOOKABLE HANGABLE
poster | Decor | LOOKABLE HANGABLE HAS_PAPER
drawing | Decor | GRABBABLE LOOKABLE MOVABLE HAS_PAPER | ON desk, ON table, ON fridge
mirror | Decor | LOOKABLE
wall_clock | Decor | LOOKABLE
clock | Decor | GRABBABLE LOOKABLE | ON shelf, ON nightstand
centerpiece | Decor | GRABBABLE LOOKABLE SURFACES MOVABLE | ON dining_table, ON coffee_table
vase | Decor | GRABBABLE CONTAINERS RECIPIENT | ON table, ON shelf, ON dining_table
flowers | Decor | GRABBABLE RECIPIENT LOOKABLE | INSIDE vase, ON dining_table, ON table
plant | Decor | GRABBABLE RECIPIENT MOVABLE | ON floor, ON window_sill, ON shelf
flower_pot | Decor | GRABBABLE CONTAINERS RECIPIENT | ON window_sill, ON floor
candle | Decor | GRABBABLE | ON dining_table, ON coffee_table, ON shelf
candle_holder | Decor | GRABBABLE CONTAINERS SURFACES | ON dining_table, ON shelf
figurine | Decor | GRABBABLE LOOKABLE | ON shelf, ON bookshelf
statue | Decor | GRABBABLE LOOKABLE MOVABLE | ON shelf, ON floor
trophy | Decor | GRABBABLE LOOKABLE | ON shelf, ON bookshelf
globe | Decor | GRABBABLE LOOKABLE MOVABLE | ON bookshelf, ON desk
ashtray | Decor | GRABBABLE CONTAINERS SURFACES | ON coffee_table, ON table
fish_tank | Decor | CONTAINERS RECIPIENT LOOKABLE SURFACES | ON side_table, ON floor
rug | Decor | SURFACES COVER_OBJECT MOVABLE
carpet | Decor | SURFACES COVER_OBJECT
mat | Decor | GRABBABLE SURFACES COVER_OBJECT MOVABLE | ON floor
door_mat | Decor | GRABBABLE SURFACES MOVABLE | ON floor
bath_mat | Decor | GRABBABLE SURFACES COVER_OBJECT MOVABLE | ON floor
curtain | Decor | CAN_OPEN COVER_OBJECT MOVABLE
blinds | Decor | CAN_OPEN COVER_OBJECT
shower_curtain | Decor | CAN_OPEN COVER_OBJECT MOVABLE
pillow | Decor | GRABBABLE MOVABLE | ON bed, ON couch
cushion | Decor | GRABBABLE SITTABLE MOVABLE | ON couch, ON armchair, ON sofa
sheets | Decor | GRABBABLE COVER_OBJECT MOVABLE | ON bed, INSIDE closet
pillowcase | Decor | GRABBABLE COVER_OBJECT | INSIDE closet, ON bed
blanket | Decor | GRABBABLE COVER_OBJECT MOVABLE | ON bed, ON couch, INSIDE closet
comforter | Decor | GRABBABLE COVER_OBJECT MOVABLE | ON bed, INSIDE closet
table_cloth | Decor | GRABBABLE SURFACES COVER_OBJECT | ON dining_table, INSIDE cupboard

# Props: bags and boxes
box | Props | GRABBABLE CONTAINERS CAN_OPEN SURFACES MOVABLE | INSIDE closet, ON floor
bag | Props | GRABBABLE CONTAINERS CAN_OPEN SURFACES | INSIDE closet, ON floor
purse | Props | GRABBABLE CONTAINERS CAN_OPEN | ON table, ON dresser, INSIDE closet
backpack | Props | GRABBABLE CONTAINERS CAN_OPEN HANGABLE | INSIDE closet, ON floor
suitcase | Props | GRABBABLE CONTAINERS CAN_OPEN SURFACES MOVABLE | INSIDE closet, ON floor
briefcase | Props | GRABBABLE CONTAINERS CAN_OPEN | ON desk, ON floor
basket | Props | GRABBABLE CONTAINERS SURFACES | ON floor, ON kitchen_counter
cooler | Props | GRABBABLE CONTAINERS CAN_OPEN SURFACES | INSIDE closet, ON floor
gift | Props | GRABBABLE CONTAINERS CAN_OPEN | ON table, INSIDE closet
wallet | Props | GRABBABLE CONTAINERS CAN_OPEN | ON nightstand, ON dresser, ON desk
keys | Props | GRABBABLE | ON side_table, ON table, ON nightstand
coin | Props | GRABBABLE | ON desk, ON nightstand, INSIDE wallet
money | Props | GRABBABLE HAS_PAPER | INSIDE wallet, ON desk
credit_card | Props | GRABBABLE | INSIDE wallet, ON desk
umbrella | Props | GRABBABLE CAN_OPEN HANGABLE | INSIDE umbrella_stand, INSIDE closet
lighter | Props | GRABBABLE HAS_SWITCH | INSIDE kitchen_cabinet, ON kitchen_counter
matches | Props | GRABBABLE | INSIDE kitchen_cabinet, ON kitchen_counter
fire_extinguisher | Props | GRABBABLE | INSIDE kitchen_cabinet, ON floor

# Props: toys, games and hobbies
toy | Props | GRABBABLE MOVABLE | INSIDE toy_box, ON floor
teddy_bear | Props | GRABBABLE | ON bed, INSIDE toy_box
doll | Props | GRABBABLE | INSIDE toy_box, ON bed
toy_car | Props | GRABBABLE MOVABLE | INSIDE toy_box, ON floor
building_blocks | Props | GRABBABLE | INSIDE toy_box, ON floor
ball | Props | GRABBABLE MOVABLE | INSIDE toy_box, ON floor
balloon | Props | GRABBABLE | ON floor
puzzle | Props | GRABBABLE | ON coffee_table, INSIDE closet
board_game | Props | GRABBABLE CAN_OPEN | ON bookshelf, ON shelf, INSIDE closet
scrabble | Props | GRABBABLE CAN_OPEN | ON bookshelf, INSIDE closet
chessboard | Props | GRABBABLE SURFACES | ON table, ON coffee_table, ON shelf
playing_cards | Props | GRABBABLE | ON table, INSIDE desk
dice | Props | GRABBABLE | ON table, INSIDE desk
guitar | Props | GRABBABLE | INSIDE closet, ON floor
violin | Props | GRABBABLE | INSIDE closet, ON shelf
bell | Props | GRABBABLE | ON table, ON shelf
paint | Props | GRABBABLE CAN_OPEN POURABLE | INSIDE closet
paintbrush | Props | GRABBABLE | INSIDE closet, ON desk
canvas | Props | GRABBABLE LOOKABLE SURFACES | ON easel, INSIDE closet
easel | Props | SURFACES MOVABLE
camera_tripod | Props | GRABBABLE MOVABLE | INSIDE closet, ON floor
yarn | Props | GRABBABLE | INSIDE basket, INSIDE closet
knitting_needles | Props | GRABBABLE | INSIDE basket, INSIDE closet
sewing_kit | Props | GRABBABLE CONTAINERS CAN_OPEN | INSIDE closet, ON desk
needle | Props | GRABBABLE | INSIDE sewing_kit, INSIDE desk
thread | Props | GRABBABLE | INSIDE sewing_kit, INSIDE desk
button | Props | GRABBABLE MOVABLE | INSIDE sewing_kit, ON desk
fabric | Props | GRABBABLE COVER_OBJECT | INSIDE closet
tape_measure | Props | GRABBABLE | INSIDE sewing_kit, INSIDE desk
magnet | Props | GRABBABLE | ON fridge
magnifying_glass | Props | GRABBABLE | INSIDE desk, ON desk
binoculars | Props | GRABBABLE | ON shelf, INSIDE closet

# Props: tools and sport
toolbox | Props | GRABBABLE CONTAINERS CAN_OPEN SURFACES | INSIDE closet, ON floor
hammer | Props | GRABBABLE | INSIDE toolbox, INSIDE closet
screwdriver | Props | GRABBABLE | INSIDE toolbox, INSIDE closet
wrench | Props | GRABBABLE | INSIDE toolbox, INSIDE closet
pliers | Props | GRABBABLE | INSIDE toolbox, INSIDE closet
drill | Props | GRABBABLE HAS_SWITCH HAS_PLUG | INSIDE toolbox, INSIDE closet
ladder | Props | GRABBABLE SURFACES MOVABLE | INSIDE closet, ON floor
tennis_racket | Props | GRABBABLE | INSIDE closet
golf_club | Props | GRABBABLE | INSIDE closet
baseball_bat | Props | GRABBABLE | INSIDE closet
helmet | Props | GRABBABLE CLOTHES | INSIDE closet
skateboard | Props | GRABBABLE MOVABLE | ON floor, INSIDE closet
bicycle | Props | SITTABLE MOVABLE | ON floor
dumbbell | Props | GRABBABLE | ON floor
yoga_mat | Props | GRABBABLE SURFACES LIEABLE COVER_OBJECT | ON floor, INSIDE closet
exercise_ball | Props | GRABBABLE SITTABLE MOVABLE | ON floor
jump_rope | Props | GRABBABLE | INSIDE closet
sleeping_bag | Props | GRABBABLE LIEABLE COVER_OBJECT | INSIDE closet

# Props: pets and plants
leash | Props | GRABBABLE HANGABLE | ON coat_rack, INSIDE closet
pet_bowl | Props | GRABBABLE CONTAINERS RECIPIENT | ON floor
pet_bed | Props | SURFACES LIEABLE MOVABLE | ON floor
litter_box | Props | GRABBABLE CONTAINERS MOVABLE | ON floor
bird_cage | Props | CONTAINERS CAN_OPEN | ON table, ON floor
watering_can | Props | GRABBABLE RECIPIENT POURABLE | ON window_sill, INSIDE closet, ON floor
stroller | Props | CONTAINERS MOVABLE | ON floor

# Body
head | Body | BODY_PART
face | Body | BODY_PART
hair | Body | BODY_PART
eyes_both | Body | BODY_PART
ears_both | Body | BODY_PART
nose | Body | BODY_PART
mouth | Body | BODY_PART
lips | Body | BODY_PART
teeth | Body | BODY_PART
neck | Body | BODY_PART
arms_both | Body | BODY_PART
hands_both | Body | BODY_PART
fingers | Body | BODY_PART
fingernails | Body | BODY_PART
legs_both | Body | BODY_PART
feet_both | Body | BODY_PART
body | Body | BODY_PART

# Characters
character | Characters | PERSON
person | Characters | PERSON
man | Characters | PERSON
woman | Characters | PERSON
child | Characters | PERSON
baby | Characters | PERSON
boy | Characters | PERSON
girl | Characters | PERSON
mother | Characters | PERSON
father | Characters | PERSON
grandmother | Characters | PERSON
grandfather | Characters | PERSON
guest | Characters | PERSON
friend | Characters | PERSON
neighbor | Characters | PERSON

# Animals
cat | Animals | GRABBABLE MOVABLE | ON floor, ON couch
dog | Animals | MOVABLE | ON floor
bird | Animals | MOVABLE | INSIDE bird_cage
goldfish | Animals | MOVABLE | INSIDE fish_tank
hamster | Animals | GRABBABLE MOVABLE | INSIDE bird_cage, ON floor
rabbit | Animals | GRABBABLE MOVABLE | ON floor
"""

_SYNONYMS = """
# Rooms
livingroom = living_room
lounge = living_room
family_room = living_room
diningroom = dining_room
homeoffice = home_office
office = home_office
study = home_office
hallway = entrance_hall
hall = entrance_hall
entrance = entrance_hall
entryway = entrance_hall
foyer = entrance_hall
restroom = bathroom
washroom = bathroom

# Structure
floors = floor
windowsill = window_sill
staircase = stairs
lightswitch = light_switch
switch = light_switch
outlet = electrical_outlet
power_outlet = electrical_outlet
socket = electrical_outlet

# Furniture
loveseat = love_seat
recliner = armchair
folding_chair = chair
dining_chair = chair
desk_chair = office_chair
bar_stool = stool
footstool = ottoman
kitchentable = kitchen_table
diningtable = dining_table
coffeetable = coffee_table
sidetable = side_table
end_table = side_table
bedside_table = nightstand
night_stand = nightstand
night_table = nightstand
chest_of_drawers = dresser
closetdrawer = closet_drawer
bookcase = bookshelf
book_shelf = bookshelf
wallshelf = wall_shelf
kitchencabinet = kitchen_cabinet
bathroomcabinet = bathroom_cabinet
medicine_cabinet = bathroom_cabinet
file_cabinet = filing_cabinet
kitchencounter = kitchen_counter
counter = kitchen_counter
countertop = kitchen_counter
kitchen_island = kitchen_counter
kitchencounterdrawer = kitchen_counter_drawer
bathroomcounter = bathroom_counter
tvstand = tv_stand
entertainment_center = tv_stand
shoerack = shoe_rack
hat_rack = coat_rack
towelrack = towel_rack
trash_can = trashcan
garbage_can = trashcan
garbagecan = trashcan
trash_bin = trashcan
wastebasket = trashcan
waste_basket = trashcan
recycle_bin = recycling_bin
bath = bathtub
tub = bathtub
kitchen_sink = sink
bathroom_sink = sink
tap = faucet

# Appliances
refrigerator = fridge
microwave_oven = microwave
stovetop = stove
coffeemaker = coffee_maker
coffe_maker = coffee_maker
espresso_machine = coffee_maker
tea_kettle = kettle
dish_washer = dishwasher
washingmachine = washing_machine
washer = washing_machine
dryer = clothes_dryer
vacuum = vacuum_cleaner
hairdryer = hair_dryer
blow_dryer = hair_dryer
shaver = electric_shaver
space_heater = heater

# Electronics
tv = television
tv_set = television
pc = computer
desktop_computer = computer
cpuscreen = cpu_screen
monitor = cpu_screen
computer_screen = cpu_screen
screen = cpu_screen
computer_mouse = mouse
mouse_pad = mousepad
mousemat = mousepad
computer_keyboard = keyboard
telephone = phone
cell_phone = cellphone
mobile_phone = cellphone
smartphone = cellphone
ipad = tablet
headphones = headset
earphones = headset
remotecontrol = remote_control
remote = remote_control
tv_remote = remote_control
game_console = video_game_console
gaming_console = video_game_console
game_controller = video_game_controller
controller = video_game_controller
joystick = video_game_controller
videogame = video_game
power_strip = extension_cord
flash_drive = usb_drive

# Lamps
lamp = table_lamp
bedside_lamp = table_lamp
tablelamp = table_lamp
floorlamp = floor_lamp
ceilinglamp = ceiling_lamp
walllamp = wall_lamp
lightbulb = light_bulb
bulb = light_bulb
torch = flashlight

# Kitchenware
dish = plate
dinner_plate = plate
cereal_bowl = bowl
soup_bowl = bowl
salad_bowl = bowl
coffee_mug = mug
teacup = tea_cup
waterglass = water_glass
glass_of_water = water_glass
glass = drinking_glass
wineglass = wine_glass
jug = pitcher
coffeepot = coffee_pot
cookingpot = pot
cooking_pot = pot
saucepan = pot
fryingpan = frying_pan
skillet = frying_pan
cuttingboard = cutting_board
chopping_board = cutting_board
cutleryknife = cutlery_knife
knife = cutlery_knife
kitchen_knife = cutlery_knife
butter_knife = cutlery_knife
cutleryfork = cutlery_fork
fork = cutlery_fork
teaspoon = spoon
tablespoon = spoon
strainer = colander
oven_mitt = oven_mitts
oven_glove = oven_mitts
dishrack = dish_rack
dish_drainer = dish_rack
place_mat = placemat
foil = aluminum_foil
tin_foil = aluminum_foil
cling_film = plastic_wrap
tupperware = storage_container
food_container = storage_container
container = storage_container

# Food
fruit = food_fruit
veggies = food_vegetable
breadslice = bread_slice
doughnut = food_donut
icecream = food_ice_cream
biscuit = food_cookie
sweets = food_candy
crackers = salt_crackers
potato_chips = chips
crisps = chips
oats = food_oatmeal
porridge = food_oatmeal
noodle = food_noodles
spaghetti = pasta
grape = food_grapes
nut = food_nuts
burger = food_hamburger
chinesefood = takeout_food
chinese_food = takeout_food
takeout = takeout_food
ground_beef = minced_meat
peanutbutter = food_peanut_butter
jelly = food_jam
chocolatesyrup = chocolate_syrup
oil = cooking_oil
olive_oil = cooking_oil
ice_cube = ice
grocery = groceries
cat_food = pet_food
dog_food = pet_food

# Drinks
orange_juice = juice
apple_juice = juice
soft_drink = soda
cola = soda
coke = soda
hot_cocoa = hot_chocolate
cocoa = hot_chocolate
liquor = alcohol
whisky = whiskey
red_wine = wine
white_wine = wine
bottled_water = water_bottle
bottle_water = water_bottle
coffee_grounds = ground_coffee
teabag = tea_bag

# Clothes
clothes = clothes_pile
clothespile = clothes_pile
laundry = clothes_pile
dirty_clothes = clothes_pile
t_shirt = clothes_shirt
tshirt = clothes_shirt
trousers = clothes_pants
jeans = clothes_pants
jumper = clothes_sweater
pullover = clothes_sweater
cap = clothes_hat
beanie = clothes_hat
mittens = clothes_gloves
glove = clothes_gloves
sock = clothes_socks
necktie = clothes_tie
bathrobe = clothes_robe
dressing_gown = clothes_robe
bathing_suit = clothes_swimsuit
pyjamas = pajamas
pajama = pajamas
shoe = shoes
boot = boots
sneaker = sneakers
sandal = sandals
slipper = slippers
glasses = spectacles
eyeglasses = spectacles
reading_glasses = spectacles
wristwatch = watch
earring = earrings
coat_hanger = hanger

# Toiletries
toothpaste = tooth_paste
tooth_brush = toothbrush
floss = dental_floss
bar_soap = soap
hand_soap = soap
shower_gel = body_wash
lotion = lotionbottle
body_lotion = lotionbottle
hand_lotion = lotionbottle
hand_cream = lotionbottle
facecream = face_cream
moisturizer = face_cream
aftershave = after_shave
shaving_foam = shaving_cream
hairproduct = hair_product
hair_gel = hair_product
hairbrush = hair_brush
cosmetics = makeup
make_up = makeup
nail_varnish = nail_polish
nail_clipper = nail_clippers
cologne = perfume
q_tips = cotton_swabs
cotton_swab = cotton_swabs
contact_lens = contact_lenses
toiletpaper = toilet_paper
toilet_roll = toilet_paper
tissue = tissues
kleenex = tissues
bath_towel = towel
hand_towel = towel
beach_towel = towel
face_cloth = washcloth
loofah = bath_sponge
medication = medicine
pill = pills
vitamin = vitamins
band_aid = band_aids
bandaid = band_aids

# Cleaning
dishwashingliquid = dish_soap
dishwashing_liquid = dish_soap
dish_detergent = dish_soap
washing_up_liquid = dish_soap
dishwasher_soap = dishwasher_detergent
detergent = laundry_detergent
laundry_soap = laundry_detergent
washing_powder = laundry_detergent
cleaner = cleaning_solution
cleaning_spray = cleaning_solution
cleaning_product = cleaning_solution
washingsponge = sponge
washing_sponge = sponge
dish_sponge = sponge
cloth = rag
cleaning_cloth = rag
dishcloth = dish_towel
tea_towel = dish_towel
kitchen_towel = dish_towel
papertowel = paper_towel
feather_duster = duster
dust_pan = dustpan
garbage_bag = trash_bag
laundry_basket = basket_for_clothes
clothes_basket = basket_for_clothes
hamper = basket_for_clothes
laundry_hamper = basket_for_clothes

# Stationery
journal = diary
cheque = check
bill = bills
document = documents
paperwork = documents
file = folder
file_folder = folder
note_pad = notepad
writing_pad = notepad
post_it = sticky_notes
sticky_note = sticky_notes
crayon = crayons
sharpener = pencil_sharpener
scotch_tape = tape
paperclip = paper_clip
birthday_card = greeting_card

# Decor
photo = picture
photograph = picture
photo_frame = photoframe
picture_frame = photoframe
wallpictureframe = wall_picture_frame
wall_picture = wall_picture_frame
sculpture = statue
flower = flowers
potted_plant = plant
houseplant = plant
flowerpot = flower_pot
plant_pot = flower_pot
aquarium = fish_tank
doormat = door_mat
bathmat = bath_mat
drapes = curtain
blind = blinds
bed_sheets = sheets
bed_sheet = sheets
bedsheet = sheets
duvet = comforter
quilt = comforter
pillow_case = pillowcase
throw_pillow = cushion
tablecloth = table_cloth

# Props
handbag = purse
shopping_bag = bag
grocery_bag = bag
plastic_bag = bag
rucksack = backpack
school_bag = backpack
luggage = suitcase
present = gift
key = keys
house_keys = keys
car_keys = keys
cash = money
stuffed_animal = teddy_bear
teddy = teddy_bear
blocks = building_blocks
lego = building_blocks
jigsaw_puzzle = puzzle
boardgame = board_game
chess = chessboard
chess_board = chessboard
cards = playing_cards
deck_of_cards = playing_cards
balanceball = exercise_ball
yoga_ball = exercise_ball
weights = dumbbell
skipping_rope = jump_rope
bike = bicycle
dog_leash = leash
dog_bowl = pet_bowl
cat_bowl = pet_bowl
litterbox = litter_box
birdcage = bird_cage
shoe_shine = shoe_shine_kit

# Body
head_hair = hair
eye = eyes_both
eyes = eyes_both
ear = ears_both
ears = ears_both
tooth = teeth
arm = arms_both
arms = arms_both
hand = hands_both
hands = hands_both
finger = fingers
nails = fingernails
lip = lips
leg = legs_both
legs = legs_both
foot = feet_both
feet = feet_both

# Characters
people = person
kid = child
children = child
infant = baby
mom = mother
mum = mother
dad = father
grandma = grandmother
grandpa = grandfather
visitor = guest

# Animals
kitten = cat
kitty = cat
puppy = dog
parrot = bird
pet_fish = goldfish
fish_bowl = fish_tank
"""

_NAME = re.compile(r"[a-z][a-z0-9_]*")


def _error(lineno: int, line: str, why: str) -> ValueError:
    return ValueError(f"line {lineno} ({line!r}): {why}")


def parse_table(text: str) -> dict[str, ObjectClass]:
    """Read a table of classes (one ``name | Category | PROPERTIES | PLACEMENTS`` a line).

    Raises:
        ValueError: naming the line, for a malformed line, an unknown category or property, a
            duplicate class, or a placement whose destination is no class of the table or cannot
            take it (``ON`` needs ``SURFACES``, ``INSIDE`` needs ``CONTAINERS``).

    >>> table = parse_table("table | Furniture | SURFACES\\ncup | Kitchenware | GRABBABLE | ON table")
    >>> table["cup"].places
    (('ON', 'table'),)
    """
    classes: dict[str, ObjectClass] = {}
    lines: dict[str, tuple[int, str]] = {}
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        fields = [field.strip() for field in line.split("|")]
        if not 2 <= len(fields) <= 4:
            raise _error(lineno, line, "expected 'name | Category | PROPERTIES | PLACEMENTS'")
        name, category, props, places = [*fields, "", ""][:4]
        if not _NAME.fullmatch(name):
            raise _error(lineno, line, f"bad class name {name!r}")
        if name in classes:
            raise _error(lineno, line, f"duplicate class {name!r}")
        if category not in CATEGORIES:
            raise _error(lineno, line, f"unknown category {category!r}")
        unknown = [p for p in props.split() if p not in PROPERTIES]
        if unknown:
            raise _error(lineno, line, f"unknown property {unknown[0]!r}")
        pairs = []
        for place in filter(None, (p.strip() for p in places.split(","))):
            parts = place.split()
            if len(parts) != 2 or parts[0] not in RELATIONS:
                raise _error(lineno, line, f"bad placement {place!r}")
            pairs.append((parts[0], parts[1]))
        classes[name] = ObjectClass(name, category, frozenset(props.split()), tuple(pairs))
        lines[name] = (lineno, line)
    for name, cls in classes.items():
        for relation, destination in cls.places:
            target = classes.get(destination)
            needs = "SURFACES" if relation == "ON" else "CONTAINERS"
            if target is None:
                raise _error(*lines[name], f"placement destination {destination!r} is no class")
            if not target.has(needs):
                raise _error(*lines[name], f"{relation} {destination} lacks {needs}")
    return classes


def parse_synonyms(text: str, classes: dict[str, ObjectClass]) -> dict[str, str]:
    """Read ``alias = class`` lines into a mapping, checked against ``classes``.

    Raises:
        ValueError: naming the line, for a malformed line, an alias that is a class or is given
            twice, or a target that is no class.

    >>> parse_synonyms("tv = television", parse_table("television | Electronics | HAS_SWITCH"))
    {'tv': 'television'}
    """
    synonyms: dict[str, str] = {}
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        alias, sep, target = (part.strip() for part in line.partition("="))
        if not sep or not _NAME.fullmatch(alias) or not _NAME.fullmatch(target):
            raise _error(lineno, line, "expected 'alias = class'")
        if alias in classes:
            raise _error(lineno, line, f"alias {alias!r} is a class")
        if alias in synonyms:
            raise _error(lineno, line, f"duplicate alias {alias!r}")
        if target not in classes:
            raise _error(lineno, line, f"{target!r} is no class")
        synonyms[alias] = target
    return synonyms


CLASSES: dict[str, ObjectClass] = parse_table(_TABLE)
"""Every object class, by name."""

SYNONYMS: dict[str, str] = parse_synonyms(_SYNONYMS, CLASSES)
"""Other names of a class → the class."""

ROOMS: tuple[str, ...] = tuple(name for name, cls in CLASSES.items() if cls.category == "Rooms")
"""The room classes."""

_PREFIXES = ("food_", "clothes_")


def _normalise(name: str) -> str:
    key = re.sub(r"[\s\-]+", "_", name.strip().lower())
    return re.sub(r"_+", "_", key).strip("_")


def _singulars(key: str) -> list[str]:
    forms = []
    if key.endswith("ies"):
        forms.append(key[:-3] + "y")
    if key.endswith("es"):
        forms.append(key[:-2])
    if key.endswith("s") and not key.endswith("ss"):
        forms.append(key[:-1])
    return forms


def canonical(name: str) -> str | None:
    """The class a name stands for, or ``None`` if it names none.

    The name is normalised (trimmed, lowercased, spaces and hyphens made ``_``), then looked up
    as a class or a synonym, then as a singular (a trailing ``s``, ``es`` or ``ies``), then with
    the ``food_`` or ``clothes_`` prefix added, then with such a prefix removed.

    >>> canonical("Home Office")
    'home_office'
    >>> canonical("TV")
    'television'
    >>> canonical("plates")
    'plate'
    >>> canonical("banana")
    'food_banana'
    >>> canonical("pants")
    'clothes_pants'
    >>> canonical("food_milk")
    'milk'
    >>> canonical("shoe-shine kit")
    'shoe_shine_kit'
    >>> canonical("spaceship") is None
    True
    """
    key = _normalise(name)
    if not key:
        return None
    forms = [key, *_singulars(key)]
    candidates = [*forms, *(prefix + form for prefix in _PREFIXES for form in forms)]
    candidates += [form[len(p) :] for form in forms for p in _PREFIXES if form.startswith(p)]
    for candidate in candidates:
        if candidate in CLASSES:
            return candidate
        if candidate in SYNONYMS:
            return SYNONYMS[candidate]
    return None


def placements(name: str) -> tuple[tuple[str, str], ...]:
    """Where an object of the class that ``name`` stands for goes, in order of preference.

    ``()`` for a name of no class, and for the classes a home places itself (rooms, structure,
    furniture standing on the floor, body parts, characters).

    >>> placements("cup")[0]
    ('INSIDE', 'kitchen_cabinet')
    """
    cls = canonical(name)
    return CLASSES[cls].places if cls is not None else ()
