"""Grammars of the knowledge and language categories: science, health, food, text, vision, AI.

Each grammar is in the text form of :func:`~.spec.parse_category`.
"""

from __future__ import annotations

from toolgym.simulators.tool_library.domains.spec import Category, parse_category

SCIENCE = parse_category("""
category: Science
weight: 0.8
brands: Science Astro Quantum Atom Lab Cosmos Orbit Nova Helix Element Stellar
topics: astronomy and space data; chemistry references; earth science measurements
queries: mars; hydrogen; black hole; volcano
resource planet/planets: name mass_kg:float radius_km:float distance_au:float moons_count:int orbital_period_days:float
  search: q?
  sub moon/moons: name radius_km:float discovered_year:int
resource element/elements: name symbol atomic_number:int atomic_mass:float group category
  search: q category?
resource earthquake/earthquakes: place magnitude depth_km:float latitude longitude time url
  search: min_magnitude from_date?
resource launch/launches: name rocket provider date status pad
  search: provider? status?
op GET /apod Get Astronomy Picture: Get the astronomy picture of the day.
  in: | date
  out: date title explanation url media_type
op GET /iss Get ISS Position: Get the current position of the International Space Station.
  in:
  out: latitude longitude altitude_km:float timestamp
param min_magnitude NUMBER | Minimum magnitude. | 4.5; 6 | minimum magnitude | above a magnitude
param category STRING | Element category. | noble gas; metalloid; transition metal | category | in a category
param provider STRING | Launch provider. | SpaceX; NASA; ESA | provider | by provider
param status ENUM | Launch status. | upcoming; success; failure | status | with a status
""")

EDUCATION = parse_category("""
category: Education
weight: 0.9
brands: Learn Edu Study Course Class Tutor Scholar Campus Quiz Mentor Academy
topics: online courses; university data; dictionaries and learning aids
queries: machine learning; spanish; calculus; history
resource course/courses: title provider language level duration_hours price currency rating enrolled_count
  search: q level? language?
  sub lesson/lessons: title duration_minutes number:int
  sub review/reviews: author rating text date
resource university/universities: name country country_code city url students_count:int rank
  search: country q?
resource word/words: word definition part_of_speech phonetic example language
  search: q language?
  sub- synonym/synonyms: word score
op GET /define Define Word: Get the definitions of an English word.
  in: word
  out: word phonetic | meanings: part_of_speech definition example
op GET /math/solve Solve Equation: Solve a math expression step by step.
  in: expression
  out: expression result | steps: description result
param level ENUM | Course level. | beginner; intermediate; advanced | level
param country STRING | Country name. | United States; Germany | country | in a country
param word STRING | An English word. | serendipity; resilient | word
param expression STRING | Math expression. | 2*x + 3 = 11; integrate x^2 | expression
""")

MEDICAL = parse_category("""
category: Medical
weight: 0.7
brands: Med Health Care Clinic Dose Rx Cure Pulse Vital Doctor Pharma
topics: drug information; clinical references; doctor and hospital directories
queries: ibuprofen; diabetes; cardiology; allergy
resource drug/drugs: name generic_name manufacturer dosage_form strength route rx_only:bool
  search: q manufacturer?
  sub- side effect/side effects: name frequency severity
  sub- interaction/interactions: drug_name severity description
resource condition/conditions: name icd10_code description symptoms specialty
  search: q
resource doctor/doctors: name specialty city phone rating accepting_patients:bool
  search: specialty city?
  sub review/reviews: author rating text date
resource hospital/hospitals: name address city country_code phone beds:int rating
  search: city
op GET /interactions/check Check Drug Interactions: Check the interactions between two drugs.
  in: drug_a drug_b
  out: drug_a drug_b severity description
op GET /icd10 Lookup ICD-10 Code: Look up a diagnosis by its ICD-10 code.
  in: icd10_code
  out: icd10_code name description chapter
op POST /symptoms/check Check Symptoms: Suggest possible conditions for a list of symptoms.
  in: symptoms | age sex
  out: count:int | conditions: name probability specialty
param manufacturer STRING | Manufacturer. | Pfizer; Bayer | manufacturer | by manufacturer
param specialty STRING | Medical specialty. | cardiology; dermatology; pediatrics | specialty | in a specialty
param drug_a STRING | First drug name. | ibuprofen; warfarin | first drug
param drug_b STRING | Second drug name. | aspirin; paracetamol | second drug
param icd10_code STRING | ICD-10 code. | E11.9; J45.909 | ICD-10 code
param symptoms STRING | Comma-separated symptoms. | headache, fever, cough | symptoms
param age NUMBER | Age in years. | 34; 60 | age
param sex ENUM | Sex. | female; male | sex
""")

HEALTH_AND_FITNESS = parse_category("""
category: Health and Fitness
weight: 1.0
brands: Fit Gym Health Body Active Muscle Yoga Run Vital Well Trainer Stride
topics: exercise databases; workout plans; nutrition and body metrics
queries: push up; squat; running; yoga
resource exercise/exercises: name muscle equipment difficulty instructions calories
  search: muscle equipment? difficulty?
resource workout plan/workout plans: name goal level duration_minutes days_per_week:int description
  search: goal level?
  sub- session/sessions: day:int name duration_minutes
resource gym/gyms: name address city rating price currency is_open
  search: city
  sub class/classes: name start_time instructor duration_minutes
op GET /bmi Calculate BMI: Calculate the body mass index from height and weight.
  in: height_cm weight_kg
  out: bmi category height_cm weight_kg
op GET /calories/burned Estimate Calories Burned: Estimate the calories burned by an activity.
  in: activity duration_minutes | weight_kg
  out: activity duration_minutes calories
op GET /water Calculate Water Intake: Calculate the daily water intake for a body weight.
  in: weight_kg | activity_level
  out: weight_kg liters:float
param muscle STRING | Target muscle. | biceps; chest; quadriceps; abdominals | muscle | for a muscle
param equipment STRING | Equipment. | dumbbell; barbell; body_only | equipment
param difficulty ENUM | Difficulty. | beginner; intermediate; expert | difficulty
param goal ENUM | Training goal. | weight_loss; muscle_gain; endurance | goal | for a goal
param level ENUM | Fitness level. | beginner; intermediate; advanced | level
param height_cm NUMBER | Height in centimetres. | 175; 162 | height
param weight_kg NUMBER | Weight in kilograms. | 70; 82.5 | weight
param activity STRING | Activity. | running; cycling; swimming | activity
param duration_minutes NUMBER | Duration in minutes. | 30; 45 | duration
param activity_level ENUM | Activity level. | low; moderate; high | activity level
""")

FOOD = parse_category("""
category: Food
weight: 1.3
brands: Recipe Chef Cook Taste Dish Meal Flavor Kitchen Spice Bite Feast Pantry
topics: recipes and ingredients; restaurant listings; nutrition facts
queries: pasta; chicken curry; vegan brownies; tacos
resource recipe/recipes: title cuisine diet prep_time_minutes cook_time_minutes servings calories rating
  search: q cuisine? diet? max_calories?
  sub- ingredient/ingredients: name quantity unit
  sub- step/steps: number:int text
resource restaurant/restaurants: name cuisine address city price_level:int rating review_count phone
  search: city cuisine?
  sub menu item/menu items: name price currency description
  sub review/reviews: author rating text date
resource ingredient/ingredients: name category calories protein fat carbs
  search: q
op GET /nutrition Analyze Nutrition: Compute the nutrition facts of an ingredient line.
  in: ingredient | quantity
  out: ingredient calories protein fat carbs
op GET /wine-pairing Suggest Wine Pairing: Suggest wines that go with a dish.
  in: dish
  out: dish | wines: name type description
op GET /random Get Random Recipe: Return a random recipe, optionally of a cuisine.
  in: | cuisine diet
  out: recipe_id title cuisine servings calories
param cuisine STRING | Cuisine. | italian; mexican; indian; japanese | cuisine | by cuisine
param diet ENUM | Diet. | vegetarian; vegan; gluten_free; keto | diet
param max_calories NUMBER | Maximum calories per serving. | 600; 800 | maximum calories
param ingredient STRING | Ingredient text. | 1 cup rice; 200g chicken breast | ingredient
param quantity STRING | Quantity. | 100g; 2 cups | quantity
param dish STRING | Dish name. | steak; salmon; lasagna | dish
""")

TEXT_ANALYSIS = parse_category("""
category: Text Analysis
weight: 1.2
brands: Text Lingo Word Lexi Sentiment Parse Token Grammar Semantic Prose Syntax
topics: sentiment analysis; keyword and entity extraction; language detection
queries: product review; tweet; news article
resource document/documents: title language word_count sentiment created_at
  search: language? q?
  sub- entity/entities: text type salience:float
resource corpus/corpora: name language document_count:int description
  search: language
op POST /sentiment Detect Sentiment: Detect the sentiment of a text.
  in: text | language
  out: sentiment sentiment_score confidence language
op POST /keywords Extract Keywords: Extract the keywords of a text.
  in: text | max_keywords
  out: count:int | keywords: keyword score
op POST /language Detect Language: Detect the language of a text.
  in: text
  out: language confidence
op POST /entities Extract Entities: Extract the named entities of a text.
  in: text
  out: count:int | entities: text type start:int end:int
op POST /grammar Check Grammar: Check a text for spelling and grammar mistakes.
  in: text | language
  out: count:int | matches: message offset:int length:int replacement
param max_keywords NUMBER | Maximum number of keywords. | 5; 10 | maximum keywords
""")

TRANSLATION = parse_category("""
category: Translation
weight: 0.8
brands: Translate Lingo Babel Polyglot Lang Speak Idiom Tongue Glot Verbal
topics: machine translation; language detection; dictionaries
queries: hello; thank you; good morning
resource language/languages: name code native_name direction speakers_millions:float
  search: q?
resource glossary/glossaries: name source_language target_language entries_count:int created_at
  search: source_language? target_language?
  sub entry/entries: source target
op POST /translate Translate Text: Translate a text into a target language.
  in: text target_language | source_language
  out: translated_text source_language target_language confidence
op POST /detect Detect Language: Detect the language of a text.
  in: text
  out: language confidence
op GET /dictionary Look Up Translation: Look up the translations of a word.
  in: word source_language target_language
  out: word | translations: text part_of_speech confidence
op POST /transliterate Transliterate Text: Transliterate a text into Latin script.
  in: text | source_language
  out: text transliteration source_language
param target_language STRING | ISO 639-1 code of the target language. | fr; es; de; ja | target language | into a language
param source_language STRING | ISO 639-1 code of the source language. | en; auto | source language | from a language
param word STRING | A word. | house; friend | word
""")

VISUAL_RECOGNITION = parse_category("""
category: Visual Recognition
weight: 0.8
brands: Vision Sight Lens Eye Detect Visual Image Optic Scan Recog Focus
topics: object and face detection; OCR; image labelling
queries: car; dog; receipt; license plate
resource image analysis/image analyses: image_url width height labels_count:int created_at
  search: from_date?
  sub- label/labels: name confidence
resource face/faces: image_url age gender emotion confidence
  search: image_url
resource model/models: name task accuracy classes_count:int version
  search: task?
op POST /ocr Extract Text: Extract the text of an image with OCR.
  in: image_url | language
  out: text language confidence
op POST /objects Detect Objects: Detect the objects in an image.
  in: image_url | min_confidence
  out: count:int | objects: label confidence x:int y:int width height
op POST /faces/detect Detect Faces: Detect the faces in an image with their age and emotion.
  in: image_url
  out: count:int | faces: age gender emotion confidence
op POST /nsfw Classify NSFW: Classify whether an image is safe for work.
  in: image_url
  out: is_safe probability
param image_url STRING | URL of the image. | https://images.example.com/street.jpg | image URL | in an image
param min_confidence NUMBER | Minimum confidence (0-1). | 0.5; 0.8 | minimum confidence
param task ENUM | Vision task. | classification; detection; segmentation | task
""")

AI_ML = parse_category("""
category: Artificial Intelligence/Machine Learning
weight: 1.2
brands: AI Neural Brain Cortex Deep Mind Model Logic Synth Cogni Tensor Infer
topics: text generation; embeddings and classification; hosted machine learning models
queries: summarize; chatbot; image caption
resource model/models: name task provider parameters_count:int context_length:int price currency
  search: task provider?
  sub- version/versions: version released_at notes
resource prediction/predictions: model status created_at completed_at output
  search: status?
resource dataset/datasets: name task size:int license url
  search: task q?
op POST /generate Generate Text: Generate a text continuation from a prompt.
  in: prompt | max_tokens temperature
  out: text model tokens:int finish_reason
op POST /summarize Summarize Text: Summarise a long text in a few sentences.
  in: text | max_sentences
  out: summary word_count
op POST /classify Classify Text: Classify a text into the given labels.
  in: text labels
  out: label confidence | scores: label score
op POST /embeddings Create Embedding: Create a vector embedding of a text.
  in: text | model
  out: model dimensions:int tokens:int
param task ENUM | Model task. | text-generation; classification; embedding; image-captioning | task | for a task
param provider STRING | Model provider. | open-source; toolgym-labs | provider | by provider
param status ENUM | Prediction status. | queued; running; succeeded; failed | status | with a status
param prompt STRING | The prompt. | Write a haiku about the sea. | prompt
param max_tokens NUMBER | Maximum tokens to generate. | 128; 256 | maximum tokens
param temperature NUMBER | Sampling temperature (0-2). | 0.7; 1 | temperature
param max_sentences NUMBER | Sentences in the summary. | 3 | maximum sentences
param labels STRING | Comma-separated labels. | positive,negative,neutral; sports,politics,tech | labels
param model STRING | Model name. | small-embed-v1 | model
""")

OTHER = parse_category("""
category: Other
weight: 1.0
brands: Misc Random Daily Lucky Handy Nifty Magic Odd Curio Spark Whim
topics: random generators; quotes and names; assorted lookups
queries: motivation; pizza; cat names
resource quote/quotes: text author category tags length
  search: category? author?
resource name idea/name ideas: name meaning origin gender popularity:int
  search: origin? gender?
resource fact/facts: text category source year
  search: category
op GET /dice Roll Dice: Roll one or more dice.
  in: | count sides
  out: total:int | rolls: value:int
op GET /age Estimate Age From Name: Estimate a person's age from their first name.
  in: name | country_code
  out: name age count:int
op GET /gender Predict Gender: Predict the gender of a first name.
  in: name
  out: name gender probability count:int
param category STRING | Category. | inspiration; life; humor | category | in a category
param author STRING | Author. | Maya Angelou; Mark Twain | author | by an author
param origin STRING | Name origin. | latin; greek; hebrew | origin | of an origin
param gender ENUM | Gender. | female; male; unisex | gender
param count NUMBER | Number of dice. | 2; 1 | count
param sides NUMBER | Sides per die. | 6; 20 | sides
""")

CATEGORIES: tuple[Category, ...] = (
    SCIENCE,
    EDUCATION,
    MEDICAL,
    HEALTH_AND_FITNESS,
    FOOD,
    TEXT_ANALYSIS,
    TRANSLATION,
    VISUAL_RECOGNITION,
    AI_ML,
    OTHER,
)
"""The categories of this module."""
