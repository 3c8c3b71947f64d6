#pragma once
// The value domains of `shears generate tpcds`: the TPC-DS specification's word lists
// (categories and their classes, colours, sizes, units, demographics, reasons, ship modes, ...)
// where its queries name values, so their predicates select rows; plain made-up lists (names,
// streets, counties) elsewhere.

#include <cstddef>

namespace shears::tpcds {

template <typename T, size_t N>
constexpr size_t Count(const T (&)[N]) {
  return N;
}

struct Category {
  const char* name;
  const char* const* classes;
  int class_count;
};

inline constexpr const char* kWomenClasses[] = {"dresses", "fragrances", "maternity", "swimwear"};
inline constexpr const char* kMenClasses[] = {"accessories", "shirts", "pants", "sports-apparel"};
inline constexpr const char* kChildrenClasses[] = {"newborn", "infants", "toddlers",
                                                   "school-uniforms"};
inline constexpr const char* kShoeClasses[] = {"womens", "mens", "kids", "athletic"};
inline constexpr const char* kMusicClasses[] = {"rock", "country", "pop", "classical"};
inline constexpr const char* kJewelryClasses[] = {
    "birdal",       "diamonds",   "gold",         "bracelets",     "earings",       "rings",
    "pendants",     "mens watch", "womens watch", "jewelry boxes", "semi-precious", "costume",
    "loose stones", "estate",     "custom",       "consignment"};
inline constexpr const char* kHomeClasses[] = {
    "bathroom",  "bedding",   "kids",       "curtains/drapes", "blinds/shades", "rugs",
    "decor",     "lighting",  "mattresses", "flatware",        "accent",        "paint",
    "wallpaper", "glassware", "tables",     "furniture"};
inline constexpr const char* kSportClasses[] = {
    "athletic shoes", "baseball", "basketball", "camping", "fitness", "football",
    "hockey",         "outdoor",  "optics",     "pools",   "archery", "guns",
    "sailing",        "tennis",   "fishing",    "golf"};
inline constexpr const char* kBookClasses[] = {
    "arts",      "business", "computers", "entertainments", "history", "parenting",
    "reference", "romance",  "science",   "travel",         "cooking", "home repair",
    "self-help", "sports",   "fiction",   "mystery"};
inline constexpr const char* kElectronicClasses[] = {
    "cameras",  "camcorders", "dvd/vcr players", "audio",   "karoke",      "musical",
    "personal", "scanners",   "televisions",     "memory",  "disk drives", "monitors",
    "stereo",   "automotive", "portable",        "wireless"};

/// i_category_id is the index + 1.
inline constexpr Category kCategories[] = {
    {"Women", kWomenClasses, 4},       {"Men", kMenClasses, 4},
    {"Children", kChildrenClasses, 4}, {"Shoes", kShoeClasses, 4},
    {"Music", kMusicClasses, 4},       {"Jewelry", kJewelryClasses, 16},
    {"Home", kHomeClasses, 16},        {"Sports", kSportClasses, 16},
    {"Books", kBookClasses, 16},       {"Electronics", kElectronicClasses, 16}};

/// Brand names spell numbers with these, one per decimal digit, least significant first
/// ("amalgimporto #1" is class 1 of category 2).
inline constexpr const char* kBrandSyllables[] = {"univ",     "amalg",   "importo", "exporti",
                                                  "edu pack", "scholar", "corp",    "brand",
                                                  "nameless", "maxi"};
/// Store, call center, company and manufacturer names spell numbers with these.
inline constexpr const char* kNameSyllables[] = {"ought", "able",  "pri",  "ese", "anti",
                                                 "cally", "ation", "eing", "bar", "n st"};

inline constexpr const char* kColors[] = {
    "almond",   "antique",   "aquamarine", "azure",      "beige",     "bisque",    "black",
    "blanched", "blue",      "blush",      "brown",      "burlywood", "burnished", "chartreuse",
    "chiffon",  "chocolate", "coral",      "cornflower", "cornsilk",  "cream",     "cyan",
    "dark",     "deep",      "dim",        "dodger",     "drab",      "firebrick", "floral",
    "forest",   "frosted",   "gainsboro",  "ghost",      "goldenrod", "green",     "grey",
    "honeydew", "hot",       "indian",     "ivory",      "khaki",     "lace",      "lavender",
    "lawn",     "lemon",     "light",      "lime",       "linen",     "magenta",   "maroon",
    "medium",   "metallic",  "midnight",   "mint",       "misty",     "moccasin",  "navajo",
    "navy",     "olive",     "orange",     "orchid",     "pale",      "papaya",    "peach",
    "peru",     "pink",      "plum",       "powder",     "puff",      "purple",    "red",
    "rose",     "rosy",      "royal",      "saddle",     "salmon",    "sandy",     "seashell",
    "sienna",   "sky",       "slate",      "smoke",      "snow",      "spring",    "steel",
    "tan",      "thistle",   "tomato",     "turquoise",  "violet",    "wheat",     "white",
    "yellow"};

/// Sizes with their weights.
inline constexpr struct {
  const char* name;
  int weight;
} kSizes[] = {{"petite", 17},      {"small", 17},  {"medium", 35}, {"large", 22},
              {"extra large", 17}, {"economy", 5}, {"N/A", 4}};

inline constexpr const char* kUnits[] = {"Unknown", "Each",  "Dozen", "Case",   "Pallet", "Gross",
                                         "Carton",  "Box",   "Bunch", "Bundle", "Oz",     "Lb",
                                         "Ton",     "Ounce", "Pound", "Tsp",    "Tbl",    "Cup",
                                         "Dram",    "Gram",  "N/A"};

// Demographics: customer_demographics is their full cross product, household_demographics too.
inline constexpr const char* kGenders[] = {"M", "F"};
inline constexpr const char* kMaritalStatuses[] = {"M", "S", "D", "W", "U"};
inline constexpr const char* kEducations[] = {
    "Primary", "Secondary", "College", "2 yr Degree", "4 yr Degree", "Advanced Degree", "Unknown"};
inline constexpr const char* kCreditRatings[] = {"Good", "Low Risk", "High Risk", "Unknown"};
inline constexpr const char* kBuyPotentials[] = {"0-500",      "501-1000", "1001-5000",
                                                 "5001-10000", ">10000",   "Unknown"};

inline constexpr const char* kReasons[] = {"Package was damaged",
                                           "Stopped working",
                                           "Did not get it on time",
                                           "Not the product that was ordred",
                                           "Parts missing",
                                           "Does not work with a product that I have",
                                           "Gift exchange",
                                           "Did not like the color",
                                           "Did not like the model",
                                           "Did not like the make",
                                           "Did not like the warranty",
                                           "No service location in my area",
                                           "Found a better price in a store",
                                           "Found a better extended warranty in a store",
                                           "Not working any more",
                                           "Did not fit",
                                           "Wrong size",
                                           "Lost my job",
                                           "unauthoized purchase",
                                           "duplicate purchase",
                                           "its is a boy",
                                           "it is a girl",
                                           "reason 23",
                                           "reason 24",
                                           "reason 25",
                                           "reason 26",
                                           "reason 27",
                                           "reason 28",
                                           "reason 29",
                                           "reason 30",
                                           "reason 31",
                                           "reason 32",
                                           "reason 33",
                                           "reason 34",
                                           "reason 35"};

inline constexpr const char* kShipModeTypes[] = {"REGULAR",   "EXPRESS", "NEXT DAY",
                                                 "OVERNIGHT", "TWO DAY", "LIBRARY"};
inline constexpr const char* kShipModeCodes[] = {"AIR",        "SURFACE",   "SEA",    "BIKE",
                                                 "HAND CARRY", "MESSENGER", "COURIER"};
inline constexpr const char* kCarriers[] = {
    "UPS",           "FEDEX",   "AIRBORNE", "USPS",     "DHL",       "TBS",           "ZHOU",
    "ZOUROS",        "MSC",     "LATVIAN",  "ALLIANCE", "ORIENTAL",  "BARIAN",        "BOXBUNDLES",
    "GREAT EASTERN", "DIAMOND", "RUPEKSA",  "GERMA",    "HARMSTORF", "PRIVATECARRIER"};

inline constexpr const char* kCallCenterNames[] = {
    "NY Metro",      "Mid Atlantic", "North Midwest", "Pacific Northwest",
    "California",    "Southeastern", "New England",   "Central Midwest",
    "South Midwest", "Southwest",    "Hawaii/Alaska", "Other"};
inline constexpr const char* kCallCenterClasses[] = {"small", "medium", "large"};
inline constexpr const char* kCallCenterHours[] = {"8AM-4PM", "8AM-12AM", "8AM-8AM"};
inline constexpr const char* kWebPageUses[] = {"general",  "order",     "welcome", "ad",
                                               "feedback", "protected", "dynamic"};
inline constexpr const char* kCatalogPageTypes[] = {"bi-annual", "quarterly", "monthly"};
inline constexpr const char* kLocationTypes[] = {"single family", "condo", "apartment"};
inline constexpr const char* kSalutations[] = {"Mr.", "Mrs.", "Ms.", "Miss", "Sir", "Dr."};

/// States with a weight each (more people in the big ones) and their GMT offset.
inline constexpr struct {
  const char* name;
  int weight;
  int gmt_offset;
} kStates[] = {
    {"TX", 40, -6}, {"GA", 30, -5}, {"VA", 28, -5}, {"KY", 25, -5}, {"MO", 22, -6}, {"IL", 20, -6},
    {"OH", 20, -5}, {"NC", 18, -5}, {"TN", 18, -5}, {"IN", 17, -5}, {"MI", 15, -5}, {"IA", 15, -6},
    {"MN", 14, -6}, {"WI", 13, -6}, {"NE", 12, -6}, {"KS", 12, -6}, {"MS", 12, -6}, {"AL", 12, -6},
    {"AR", 11, -6}, {"OK", 11, -6}, {"PA", 11, -5}, {"NY", 10, -5}, {"SD", 10, -6}, {"ND", 9, -6},
    {"CA", 9, -8},  {"FL", 9, -5},  {"LA", 9, -6},  {"CO", 8, -7},  {"MT", 8, -7},  {"WV", 8, -5},
    {"SC", 8, -5},  {"WA", 7, -8},  {"OR", 6, -8},  {"ID", 6, -7},  {"NM", 6, -7},  {"UT", 5, -7},
    {"NJ", 5, -5},  {"MD", 5, -5},  {"ME", 4, -5},  {"NH", 3, -5},  {"VT", 3, -5},  {"MA", 3, -5},
    {"AZ", 3, -7},  {"WY", 3, -7},  {"NV", 2, -8},  {"CT", 2, -5},  {"AK", 2, -9},  {"DE", 1, -5},
    {"RI", 1, -5},  {"HI", 1, -10}, {"DC", 1, -5}};

inline constexpr const char* kCounties[] = {
    "Williamson County", "Franklin Parish", "Bronx County",      "Orange County",
    "Ziebach County",    "Walker County",   "Rush County",       "Toole County",
    "Jefferson County",  "Dona Ana County", "La Porte County",   "Daviess County",
    "Barrow County",     "Luce County",     "Fairfield County",  "Richland County",
    "Huron County",      "Kittitas County", "Mesa County",       "Raleigh County",
    "Terrell County",    "Furnas County",   "Pennington County", "Lea County",
    "Sumner County",     "Perry County",    "Marion County",     "Maverick County",
    "Jackson County",    "Clay County",     "Washington County", "Franklin County",
    "Lincoln County",    "Madison County",  "Montgomery County", "Union County",
    "Wayne County",      "Greene County",   "Warren County",     "Grant County",
    "Lake County",       "Douglas County",  "Marshall County",   "Polk County",
    "Carroll County",    "Hamilton County", "Monroe County",     "Adams County",
    "Boone County",      "Calhoun County",  "Crawford County",   "Harrison County",
    "Hancock County",    "Henry County",    "Lee County",        "Logan County",
    "Mercer County",     "Morgan County",   "Pike County",       "Scott County"};

/// Cities, the first ones the most common (TPC-DS's stores are all in Midway or Fairview).
inline constexpr const char* kCities[] = {
    "Midway",      "Fairview",        "Oak Grove",       "Five Points", "Pleasant Hill",
    "Centerville", "Riverside",       "Mount Zion",      "Greenwood",   "Union",
    "Oakland",     "Salem",           "Glendale",        "Springdale",  "Lakeside",
    "Franklin",    "Clinton",         "Marion",          "Georgetown",  "Bethel",
    "Woodland",    "Shiloh",          "Summit",          "Jackson",     "Liberty",
    "Greenville",  "Pleasant Valley", "Mount Pleasant",  "Lebanon",     "Arlington",
    "Spring Hill", "Newport",         "Antioch",         "Hopewell",    "Concord",
    "Unionville",  "Edgewood",        "Sulphur Springs", "Wildwood",    "Ashland",
    "Enterprise",  "Friendship",      "Highland",        "Hamilton",    "Kingston",
    "Lakewood",    "Macedonia",       "Mountain View",   "Oak Hill",    "Red Hill",
    "Riverdale",   "Shady Grove",     "Spring Valley",   "Stringtown",  "Waterloo",
    "White Oak",   "Wilson",          "Woodville",       "Belmont",     "Harmony"};

inline constexpr const char* kStreetNames[] = {
    "Main",     "Oak",        "Park",     "Maple",    "Cedar",  "Elm",      "Pine",    "Lake",
    "Hill",     "Washington", "Sunset",   "Church",   "Spring", "Highland", "Forest",  "Jackson",
    "Lincoln",  "Ridge",      "River",    "Johnson",  "Walnut", "Willow",   "Center",  "Meadow",
    "Railroad", "Mill",       "Franklin", "Adams",    "Second", "Third",    "Fourth",  "Fifth",
    "Sixth",    "Seventh",    "Eighth",   "Ninth",    "Tenth",  "First",    "College", "Green",
    "Dogwood",  "Laurel",     "Poplar",   "Chestnut", "Birch",  "Smith",    "Wilson",  "Hickory"};
inline constexpr const char* kStreetTypes[] = {
    "Street", "Avenue", "Blvd", "Road", "Lane", "Court", "Way", "Drive", "Circle", "Parkway",
    "Ave",    "St",     "Ln",   "Dr",   "Ct",   "Wy",    "Cir", "RD",    "Pkwy",   "Boulevard"};

inline constexpr const char* kFirstNames[] = {
    "James",   "Mary",      "John",    "Patricia", "Robert",  "Linda",   "Michael", "Barbara",
    "William", "Elizabeth", "David",   "Susan",    "Richard", "Jessica", "Joseph",  "Sarah",
    "Thomas",  "Karen",     "Charles", "Nancy",    "Daniel",  "Lisa",    "Matthew", "Betty",
    "Anthony", "Margaret",  "Mark",    "Sandra",   "Donald",  "Ashley",  "Steven",  "Dorothy",
    "Paul",    "Kimberly",  "Andrew",  "Emily",    "Joshua",  "Donna",   "Kenneth", "Michelle",
    "Kevin",   "Carol",     "Brian",   "Amanda",   "George",  "Melissa", "Edward",  "Deborah"};
inline constexpr const char* kLastNames[] = {
    "Smith",    "Johnson",   "Williams", "Brown",     "Jones",    "Garcia",   "Miller",
    "Davis",    "Rodriguez", "Martinez", "Hernandez", "Lopez",    "Gonzalez", "Wilson",
    "Anderson", "Thomas",    "Taylor",   "Moore",     "Jackson",  "Martin",   "Lee",
    "Perez",    "Thompson",  "White",    "Harris",    "Sanchez",  "Clark",    "Ramirez",
    "Lewis",    "Robinson",  "Walker",   "Young",     "Allen",    "King",     "Wright",
    "Scott",    "Torres",    "Nguyen",   "Hill",      "Flores",   "Green",    "Adams",
    "Nelson",   "Baker",     "Hall",     "Rivera",    "Campbell", "Mitchell", "Carter",
    "Roberts",  "Gomez",     "Phillips", "Evans",     "Turner",   "Diaz",     "Parker",
    "Cruz",     "Edwards",   "Collins",  "Reyes",     "Stewart",  "Morris",   "Morales",
    "Murphy"};
inline constexpr const char* kCountries[] = {
    "UNITED STATES", "CANADA",   "MEXICO",    "UNITED KINGDOM", "GERMANY",     "FRANCE",
    "ITALY",         "SPAIN",    "JAPAN",     "CHINA",          "INDIA",       "BRAZIL",
    "ARGENTINA",     "CHILE",    "PERU",      "AUSTRALIA",      "NEW ZEALAND", "IRELAND",
    "NORWAY",        "SWEDEN",   "FINLAND",   "POLAND",         "GREECE",      "TURKEY",
    "EGYPT",         "KENYA",    "NIGERIA",   "SOUTH AFRICA",   "MOROCCO",     "PHILIPPINES",
    "VIET NAM",      "THAILAND", "INDONESIA", "MALAYSIA",       "SINGAPORE",   "ICELAND"};
inline constexpr const char* kDayNames[] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                            "Thursday", "Friday", "Saturday"};
/// Words for descriptions and made-up names.
inline constexpr const char* kWords[] = {
    "able",       "about",     "actual",     "after",     "again",    "agents",   "almost",
    "always",     "american",  "areas",      "basic",     "better",   "big",      "black",
    "bright",     "british",   "capital",    "central",   "certain",  "clear",    "common",
    "complete",   "current",   "dark",       "different", "early",    "easy",     "economic",
    "entire",     "equal",     "extra",      "fair",      "final",    "fine",     "free",
    "full",       "general",   "good",       "great",     "happy",    "hard",     "high",
    "human",      "important", "industrial", "joint",     "just",     "large",    "late",
    "legal",      "little",    "local",      "long",      "low",      "major",    "modern",
    "national",   "natural",   "new",        "old",       "only",     "open",     "other",
    "particular", "physical",  "poor",       "popular",   "possible", "present",  "private",
    "public",     "quick",     "real",       "recent",    "red",      "regional", "right",
    "rural",      "serious",   "simple",     "single",    "small",    "social",   "special",
    "strong",     "sure",      "total",      "true",      "usual",    "various",  "white",
    "whole",      "wide",      "young",      "years",     "yet"};

}  // namespace shears::tpcds
