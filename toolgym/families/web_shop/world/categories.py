"""The hand-written category grammar the catalog is generated from.

Each :class:`ProductType` is one kind of product of one of WebShop's five categories (beauty,
food, fashion, furniture, electronics): its name (and the nouns of it), the queries that find it,
its breadcrumb, the attributes it may have, its option groups, its price range and the words its
titles use. :mod:`.catalog` draws products from these types.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ProductType:
    """One kind of product.

    Attributes:
        category: one of :data:`CATEGORIES`.
        name: what it is ("running shoes").
        nouns: the nouns of its name (the type reward compares titles' nouns).
        queries: the search queries it was collected under (a product keeps one).
        breadcrumb: the category path after the category's root.
        attributes: attribute phrases it may have (a product has three to five).
        options: option groups (name: values); a product offers a subset of each.
        price: the price range in dollars.
        adjectives: words its titles use.
    """

    category: str
    name: str
    nouns: tuple[str, ...]
    queries: tuple[str, ...]
    breadcrumb: str
    attributes: tuple[str, ...]
    options: dict[str, tuple[str, ...]]
    price: tuple[float, float]
    adjectives: tuple[str, ...]


CATEGORIES = ("beauty", "food", "fashion", "furniture", "electronics")

ROOTS = {
    "beauty": "Beauty & Personal Care",
    "food": "Grocery & Gourmet Food",
    "fashion": "Clothing, Shoes & Jewelry",
    "furniture": "Home & Kitchen",
    "electronics": "Electronics",
}
"""The first part of each category's breadcrumbs."""

_COLORS = (
    "black",
    "white",
    "navy blue",
    "gray",
    "red",
    "green",
    "beige",
    "pink",
    "brown",
    "light blue",
    "olive",
    "purple",
    "charcoal",
    "ivory",
    "teal",
)
_SIZES = ("x-small", "small", "medium", "large", "x-large", "xx-large")
_SHOE_SIZES = ("6", "6.5", "7", "7.5", "8", "8.5", "9", "9.5", "10", "10.5", "11", "12")


def _t(
    category: str,
    name: str,
    nouns: str,
    queries: str,
    breadcrumb: str,
    attributes: str,
    options: dict[str, tuple[str, ...]],
    price: tuple[float, float],
    adjectives: str,
) -> ProductType:
    return ProductType(
        category,
        name,
        tuple(nouns.split()),
        tuple(q.strip() for q in queries.split(";")),
        breadcrumb,
        tuple(a.strip() for a in attributes.split(";")),
        options,
        price,
        tuple(adjectives.split()),
    )


TYPES: tuple[ProductType, ...] = (
    # -- beauty
    _t(
        "beauty",
        "shampoo",
        "shampoo",
        "sulfate free shampoo; shampoo for dry hair; natural shampoo",
        "Hair Care › Shampoo & Conditioner › Shampoos",
        "sulfate free; paraben free; natural ingredients; for dry hair; cruelty free; hair growth; "
        "tea tree oil; color safe; long lasting",
        {
            "size": ("8 fl oz", "12 fl oz", "16 fl oz", "33.8 fl oz"),
            "scent": ("coconut", "lavender", "mint", "unscented", "citrus"),
        },
        (6, 40),
        "nourishing gentle clarifying moisturizing herbal",
    ),
    _t(
        "beauty",
        "hair extensions",
        "hair extensions",
        "clip in hair extensions; human hair extensions",
        "Hair Care › Hair Extensions, Wigs & Accessories › Extensions",
        "natural looking; human hair; easy to apply; heat resistant; long lasting; double weft; "
        "high quality",
        {
            "color": ("jet black", "dark brown", "ash blonde", "chestnut brown", "honey blonde"),
            "size": ("14 inch", "18 inch", "22 inch"),
        },
        (18, 160),
        "silky straight wavy seamless",
    ),
    _t(
        "beauty",
        "lipstick",
        "lipstick",
        "matte lipstick; long lasting lipstick",
        "Makeup › Lips › Lipstick",
        "long lasting; waterproof; cruelty free; vegan; highly pigmented; moisturizing; smudge proof",
        {"color": ("ruby red", "nude", "berry", "coral", "mauve", "plum")},
        (5, 30),
        "velvet matte creamy bold",
    ),
    _t(
        "beauty",
        "face moisturizer",
        "face moisturizer",
        "face moisturizer for sensitive skin; daily face moisturizer",
        "Skin Care › Face › Creams & Moisturizers",
        "fragrance free; for sensitive skin; hyaluronic acid; oil free; anti aging; spf 30; "
        "non comedogenic; dermatologist tested",
        {"size": ("1.7 oz", "2.5 oz", "4 oz")},
        (9, 65),
        "hydrating soothing lightweight daily",
    ),
    _t(
        "beauty",
        "nail polish",
        "nail polish",
        "gel nail polish; quick dry nail polish",
        "Foot, Hand & Nail Care › Nail Art & Polish › Nail Polish",
        "quick dry; long lasting; chip resistant; non toxic; high gloss; easy to apply",
        {"color": ("classic red", "pastel pink", "midnight blue", "nude", "glitter silver")},
        (4, 22),
        "glossy gel salon shiny",
    ),
    _t(
        "beauty",
        "eye shadow palette",
        "eye shadow palette",
        "eyeshadow palette; eye shadow palette",
        "Makeup › Eyes › Eyeshadow",
        "highly pigmented; long lasting; cruelty free; blendable; shimmer and matte; travel size",
        {"style": ("warm neutrals", "smokey", "rose gold", "sunset")},
        (8, 55),
        "professional vibrant blendable",
    ),
    _t(
        "beauty",
        "makeup brush set",
        "makeup brush set",
        "makeup brush set; makeup brushes",
        "Tools & Accessories › Makeup Brushes & Tools › Brush Sets",
        "synthetic bristles; cruelty free; easy to clean; travel case; soft bristles; 12 piece",
        {"color": ("black", "rose gold", "marble white")},
        (9, 45),
        "professional soft premium",
    ),
    _t(
        "beauty",
        "body lotion",
        "body lotion",
        "body lotion for dry skin; shea butter lotion",
        "Skin Care › Body › Moisturizers › Lotions",
        "shea butter; for dry skin; fast absorbing; non greasy; fragrance free; natural ingredients",
        {
            "size": ("8 fl oz", "16 fl oz", "32 fl oz"),
            "scent": ("vanilla", "cocoa", "unscented", "rose"),
        },
        (5, 35),
        "rich soothing daily",
    ),
    # -- food
    _t(
        "food",
        "coffee beans",
        "coffee beans",
        "whole bean coffee; organic coffee beans",
        "Beverages › Coffee, Tea & Cocoa › Coffee › Whole Coffee Beans",
        "organic; fair trade; medium roast; dark roast; single origin; low acid; gluten free",
        {
            "size": ("12 ounce", "2 pound", "5 pound"),
            "flavor": ("original", "french vanilla", "hazelnut", "mocha"),
        },
        (9, 60),
        "fresh bold smooth",
    ),
    _t(
        "food",
        "protein bars",
        "protein bars",
        "protein bars; high protein snack bars",
        "Snacks & Sweets › Snack Foods › Bars › Protein Bars",
        "gluten free; low sugar; high protein; keto friendly; non gmo; plant based; no artificial "
        "sweeteners",
        {
            "flavor": (
                "chocolate peanut butter",
                "cookie dough",
                "birthday cake",
                "salted caramel",
            ),
            "size": ("12 count", "24 count"),
        },
        (15, 48),
        "crunchy chewy",
    ),
    _t(
        "food",
        "herbal tea",
        "tea",
        "herbal tea; caffeine free tea",
        "Beverages › Coffee, Tea & Cocoa › Tea › Herbal",
        "caffeine free; organic; non gmo; gluten free; individually wrapped; kosher",
        {
            "flavor": ("chamomile", "peppermint", "ginger lemon", "hibiscus"),
            "size": ("20 count", "40 count", "100 count"),
        },
        (4, 25),
        "soothing calming",
    ),
    _t(
        "food",
        "dark chocolate",
        "chocolate",
        "dark chocolate bar; sugar free chocolate",
        "Snacks & Sweets › Chocolate › Bars",
        "sugar free; vegan; fair trade; organic; gluten free; high cocoa; individually wrapped",
        {
            "flavor": ("sea salt", "almond", "orange", "mint"),
            "size": ("3.5 ounce", "6 pack", "12 pack"),
        },
        (4, 40),
        "rich smooth",
    ),
    _t(
        "food",
        "beef jerky",
        "jerky",
        "beef jerky; high protein jerky",
        "Snacks & Sweets › Jerky & Dried Meats › Beef",
        "high protein; low fat; gluten free; no msg; grass fed; keto friendly",
        {
            "flavor": ("original", "teriyaki", "peppered", "sweet and spicy"),
            "size": ("3.25 ounce", "10 ounce", "16 ounce"),
        },
        (7, 45),
        "tender savory",
    ),
    _t(
        "food",
        "olive oil",
        "olive oil",
        "extra virgin olive oil; cold pressed olive oil",
        "Pantry Staples › Cooking Oils › Olive",
        "extra virgin; cold pressed; organic; non gmo; first harvest; kosher",
        {"size": ("16.9 fl oz", "25.4 fl oz", "1 liter")},
        (8, 45),
        "premium robust mild",
    ),
    _t(
        "food",
        "gummy candy",
        "gummy candy",
        "gummy candy; sugar free gummies",
        "Snacks & Sweets › Candy › Gummy Candy",
        "sugar free; gluten free; vegan; fat free; natural flavors; individually wrapped",
        {
            "flavor": ("assorted fruit", "sour", "cherry", "peach rings"),
            "size": ("5 ounce", "2 pound", "5 pound"),
        },
        (4, 30),
        "chewy fruity",
    ),
    _t(
        "food",
        "trail mix",
        "trail mix",
        "trail mix; healthy snack mix",
        "Snacks & Sweets › Snack Foods › Trail Mix",
        "non gmo; gluten free; high protein; no added sugar; resealable bag; kosher",
        {"flavor": ("classic", "tropical", "chocolate"), "size": ("8 ounce", "26 ounce", "6 pack")},
        (5, 28),
        "crunchy wholesome",
    ),
    # -- fashion
    _t(
        "fashion",
        "running shoes",
        "running shoes",
        "men's running shoes; women's running shoes",
        "Men › Shoes › Athletic › Running",
        "non slip; rubber sole; lace up; breathable mesh; memory foam; lightweight; arch support",
        {"color": _COLORS[:8], "size": _SHOE_SIZES},
        (25, 130),
        "athletic cushioned sport",
    ),
    _t(
        "fashion",
        "t-shirt",
        "t-shirt shirt",
        "men's t-shirt; cotton t-shirt",
        "Men › Clothing › Shirts › T-Shirts",
        "machine wash; 100% cotton; short sleeve; crew neck; "
        "relaxed fit; tagless; moisture wicking",
        {"color": _COLORS, "size": _SIZES},
        (8, 35),
        "classic soft everyday",
    ),
    _t(
        "fashion",
        "jeans",
        "jeans",
        "slim fit jeans; stretch jeans",
        "Men › Clothing › Jeans",
        "slim fit; machine wash; stretch denim; button closure; five pocket; straight leg",
        {
            "color": ("dark wash", "light wash", "black", "gray"),
            "size": ("30w x 30l", "32w x 32l", "34w x 32l", "36w x 34l"),
        },
        (25, 90),
        "classic vintage stretch",
    ),
    _t(
        "fashion",
        "summer dress",
        "dress",
        "women's summer dress; floral dress",
        "Women › Clothing › Dresses › Casual",
        "machine wash; short sleeve; v neck; polyester spandex; pockets; loose fit; knee length",
        {"color": _COLORS, "size": _SIZES},
        (18, 70),
        "floral casual flowy",
    ),
    _t(
        "fashion",
        "hoodie",
        "hoodie sweatshirt",
        "pullover hoodie; fleece hoodie",
        "Men › Clothing › Active › Active Hoodies",
        "machine wash; fleece lined; drawstring closure; kangaroo pocket; long sleeve; regular fit",
        {"color": _COLORS, "size": _SIZES},
        (20, 60),
        "cozy warm athletic",
    ),
    _t(
        "fashion",
        "leggings",
        "leggings",
        "high waist leggings; yoga leggings",
        "Women › Clothing › Leggings",
        "high waist; tummy control; squat proof; moisture wicking; four way stretch; pockets",
        {"color": _COLORS[:10], "size": _SIZES[:5]},
        (12, 45),
        "buttery soft workout",
    ),
    _t(
        "fashion",
        "rain jacket",
        "jacket",
        "waterproof rain jacket; lightweight rain jacket",
        "Women › Clothing › Coats, Jackets & Vests › Raincoats",
        "waterproof; hooded; zipper closure; packable; windproof; breathable",
        {"color": _COLORS[:9], "size": _SIZES},
        (30, 120),
        "packable outdoor",
    ),
    _t(
        "fashion",
        "crew socks",
        "socks",
        "cotton crew socks; athletic socks",
        "Men › Clothing › Socks › Athletic Socks",
        "cushioned; moisture wicking; machine wash; arch support; breathable; 6 pack",
        {
            "color": ("black", "white", "gray", "assorted"),
            "size": ("shoe size 6-9", "shoe size 9-12", "shoe size 12-15"),
        },
        (9, 30),
        "cushioned athletic",
    ),
    # -- furniture
    _t(
        "furniture",
        "office chair",
        "office chair",
        "ergonomic office chair; desk chair",
        "Furniture › Home Office Furniture › Home Office Chairs › Desk Chairs",
        "lumbar support; "
        "adjustable height; swivel; easy assembly; breathable mesh; padded armrests",
        {"color": ("black", "gray", "white", "blue")},
        (60, 350),
        "ergonomic executive",
    ),
    _t(
        "furniture",
        "bookshelf",
        "bookshelf",
        "wooden bookshelf; 5 tier bookshelf",
        "Furniture › Home Office Furniture › Bookcases",
        "easy assembly; solid wood; 5 tier; space saving; wall anchor; industrial style",
        {"color": ("rustic brown", "black", "white", "walnut")},
        (40, 260),
        "modern rustic industrial",
    ),
    _t(
        "furniture",
        "coffee table",
        "coffee table table",
        "coffee table for living room; wood coffee table",
        "Furniture › Living Room Furniture › Tables › Coffee Tables",
        "easy assembly; storage shelf; solid wood; water resistant; round; lift top",
        {"color": ("espresso", "natural oak", "white", "black")},
        (50, 300),
        "modern farmhouse mid-century",
    ),
    _t(
        "furniture",
        "bed frame",
        "bed frame",
        "metal bed frame; platform bed frame",
        "Furniture › Bedroom Furniture › Beds, Frames & Bases › Bed Frames",
        "easy assembly; no box spring needed; under bed storage; noise free; steel slats",
        {"size": ("twin", "full", "queen", "king"), "color": ("black", "white", "gray")},
        (90, 450),
        "sturdy platform",
    ),
    _t(
        "furniture",
        "bar stools",
        "bar stools stools",
        "counter height bar stools; swivel bar stools",
        "Furniture › Kitchen & Dining Room Furniture › Stools",
        "set of 2; swivel; adjustable height; padded seat; footrest; easy assembly",
        {"color": ("black", "gray", "brown", "white")},
        (60, 280),
        "modern industrial",
    ),
    _t(
        "furniture",
        "tv stand",
        "tv stand",
        "tv stand for living room; entertainment center",
        "Furniture › Living Room Furniture › TV & Media Furniture › Television Stands",
        "storage shelves; cable management; easy assembly; solid wood; fits tvs up to 65 inch",
        {"color": ("walnut", "black", "white", "gray oak")},
        (70, 320),
        "modern rustic",
    ),
    _t(
        "furniture",
        "blackout curtains",
        "curtains",
        "blackout curtains; thermal insulated curtains",
        "Home Décor › Window Treatments › Curtains & Drapes › Panels",
        "thermal insulated; blackout; machine wash; noise reducing; grommet top; set of 2",
        {"color": _COLORS[:10], "size": ("w42 x l63", "w52 x l84", "w52 x l95")},
        (15, 70),
        "room darkening",
    ),
    _t(
        "furniture",
        "area rug",
        "rug",
        "area rug for living room; washable rug",
        "Home Décor › Rugs, Pads & Protectors › Area Rugs",
        "machine washable; non slip; low pile; stain resistant; soft; pet friendly",
        {
            "size": ("3' x 5'", "5' x 7'", "8' x 10'"),
            "color": ("gray", "beige", "blue", "multicolor"),
        },
        (30, 250),
        "bohemian modern soft",
    ),
    # -- electronics
    _t(
        "electronics",
        "wireless earbuds",
        "earbuds",
        "wireless earbuds; bluetooth earbuds",
        "Headphones, Earbuds & Accessories › Earbud Headphones",
        "noise cancelling; "
        "bluetooth 5.3; long battery life; waterproof; charging case; built-in microphone",
        {"color": ("black", "white", "navy blue")},
        (20, 180),
        "wireless true compact",
    ),
    _t(
        "electronics",
        "phone case",
        "phone case case",
        "iphone 14 case; protective phone case",
        "Cell Phones & Accessories › Cases, Holsters & Sleeves › Basic Cases",
        "shockproof; slim fit; wireless charging compatible; raised edges; scratch resistant",
        {
            "color": ("clear", "black", "pink", "navy blue"),
            "size": ("iphone 14", "iphone 14 pro", "iphone 15"),
        },
        (8, 40),
        "protective slim",
    ),
    _t(
        "electronics",
        "usb flash drive",
        "flash drive drive",
        "usb flash drive; 64gb flash drive",
        "Computers & Accessories › Data Storage › USB Flash Drives",
        "usb 3.0; high speed; metal casing; keychain design; plug and play",
        {"size": ("32gb", "64gb", "128gb", "256gb")},
        (6, 45),
        "compact durable",
    ),
    _t(
        "electronics",
        "hdmi cable",
        "hdmi cable cable",
        "4k hdmi cable; high speed hdmi cable",
        "Television & Video › Accessories › Cables › HDMI Cables",
        "4k; high speed; braided; gold plated; ethernet; 2 pack",
        {"size": ("3 feet", "6 feet", "10 feet", "15 feet")},
        (6, 30),
        "braided premium",
    ),
    _t(
        "electronics",
        "bluetooth speaker",
        "speaker",
        "portable bluetooth speaker; waterproof speaker",
        "Portable Audio & Video › Portable Speakers & Docks › Portable Bluetooth Speakers",
        "waterproof; long battery life; portable; deep bass; built-in microphone; stereo pairing",
        {"color": ("black", "blue", "red", "gray")},
        (20, 150),
        "portable rugged",
    ),
    _t(
        "electronics",
        "smart watch",
        "smart watch watch",
        "smart watch for men; fitness tracker watch",
        "Wearable Technology › Smartwatches",
        "heart rate monitor; sleep tracking; "
        "waterproof; long battery life; gps; compatible with android and ios",
        {"color": ("black", "silver", "rose gold"), "size": ("41mm", "45mm")},
        (30, 250),
        "fitness sport",
    ),
    _t(
        "electronics",
        "power bank",
        "power bank charger",
        "portable charger power bank; 10000mah power bank",
        "Cell Phones & Accessories › Chargers & Power Adapters › Portable Power Banks",
        "fast charging; usb c; compact; led display; 2 pack; airline approved",
        {"size": ("10000mah", "20000mah", "26800mah"), "color": ("black", "white")},
        (15, 70),
        "portable slim",
    ),
    _t(
        "electronics",
        "laptop stand",
        "laptop stand stand",
        "adjustable laptop stand; aluminum laptop stand",
        "Computers & Accessories › Laptop Accessories › Stands",
        "adjustable height; aluminum alloy; ergonomic; foldable; ventilated; anti slip",
        {"color": ("silver", "space gray", "black")},
        (15, 60),
        "ergonomic foldable",
    ),
)
"""Every product type, eight per category."""
