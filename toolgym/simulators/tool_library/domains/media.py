"""Grammars of the media and people categories: entertainment, sports, news, social, messaging.

Each grammar is in the text form of :func:`~.spec.parse_category`.
"""

from __future__ import annotations

from toolgym.simulators.tool_library.domains.spec import Category, parse_category

SPORTS = parse_category("""
category: Sports
weight: 2.0
brands: Score Goal Match League Sport Play Team Champ Arena Pitch Kick Fixture
topics: live scores and fixtures; team and player statistics; league standings
queries: manchester; lakers; real madrid; yankees
resource team/teams: name short_name country city league founded_year:int stadium logo_url
  search: q league? country?
  sub player/players: name position nationality age number:int
  sub match/matches: date opponent home_score:int away_score:int status
resource player/players: name team position nationality age height_cm weight_kg
  search: q team? position?
  sub- season stat/season stats: season appearances:int goals assists:int rating
resource league/leagues: name country sport season current_round:int teams_count:int
  search: sport country?
  sub- standing/standings: rank team points wins losses
resource match/matches: home_team away_team date status home_score:int away_score:int venue league
  search: date league?
  sub- event/events: minute:int type player team
op GET /live Get Live Scores: List the matches being played right now.
  in: | sport league
  out: count:int | matches: match_id home_team away_team home_score:int away_score:int minute:int
op GET /odds Get Match Odds: Get the betting odds of a match.
  in: match_id | bookmaker
  out: match_id home_odds:float draw_odds:float away_odds:float bookmaker updated_at
param league STRING | League name or code. | Premier League; NBA; La Liga | league | in a league
param country STRING | Country name. | England; Spain; USA | country | in a country
param team STRING | Team name. | Arsenal; Boston Celtics | team | on a team
param position ENUM | Playing position. | goalkeeper; defender; midfielder; forward | position
param sport ENUM | Sport. | football; basketball; baseball; tennis; hockey | sport | for a sport
param season STRING | Season. | 2023-2024; 2024 | season
param bookmaker STRING | Bookmaker name. | bet365; pinnacle | bookmaker
""")

ENTERTAINMENT = parse_category("""
category: Entertainment
weight: 1.8
brands: Fun Joke Quiz Trivia Meme Show Star Fan Buzz Pop Laugh Spot
topics: jokes and trivia; celebrity and TV data; fun facts
queries: friends; cats; dad joke; space
resource joke/jokes: text category rating language
  search: category? q?
resource celebrity/celebrities: name birth_date nationality profession net_worth:float url
  search: name nationality?
  sub award/awards: title year category
resource tv show/tv shows: title network genre rating seasons episodes year status
  search: q genre?
  sub episode/episodes: title season:int number:int air_date rating
resource trivia question/trivia questions: question answer category difficulty
  search: category difficulty?
op GET /random-fact Get Random Fact: Return a random fun fact.
  in: | category language
  out: fact category source
op GET /horoscope Get Horoscope: Get the daily horoscope of a zodiac sign.
  in: sign | date
  out: sign date horoscope lucky_number:int mood
param category ENUM | Category. | general; science; history; animals; programming | category | in a category
param difficulty ENUM | Difficulty. | easy; medium; hard | difficulty
param nationality STRING | Nationality. | American; British | nationality
param sign ENUM | Zodiac sign. | aries; taurus; gemini; leo; virgo; libra | zodiac sign
param genre STRING | Genre. | comedy; drama; reality | genre | in a genre
""")

MUSIC = parse_category("""
category: Music
weight: 1.3
brands: Tune Beat Song Lyric Melody Sound Chord Rhythm Vinyl Track Groove Chart
topics: music catalogue and lyrics; charts and playlists; artist data
queries: taylor swift; bohemian rhapsody; jazz; daft punk
resource track/tracks: title artist album duration_seconds year genre popularity:int explicit
  search: q artist? genre?
  sub lyric line/lyric lines: text start_ms:int
resource artist/artists: name country genre followers popularity:int url
  search: q genre?
  sub album/albums: title year track_count
  sub track/tracks: title duration_seconds popularity:int
resource album/albums: title artist year genre track_count label
  search: q year?
  sub track/tracks: title duration_seconds number:int
resource playlist/playlists: name owner track_count followers description
  search: q
  sub track/tracks: title artist duration_seconds
op GET /charts Get Top Chart: Get the top tracks of a country's chart.
  in: country_code | date limit
  out: country_code date | tracks: rank title artist weeks_on_chart:int
op GET /lyrics Get Lyrics: Get the lyrics of a song by title and artist.
  in: title artist
  out: title artist lyrics language
param artist STRING | Artist name. | Queen; Adele; Daft Punk | artist | by an artist
param genre STRING | Music genre. | rock; pop; jazz; hip-hop | genre | in a genre
param title STRING | Song title. | Bohemian Rhapsody; Hello | title
""")

MOVIES = parse_category("""
category: Movies
weight: 0.8
brands: Movie Film Cinema Reel Screen Flick Scene Cast Premiere Studio
topics: movie database; showtimes and cast data; ratings and reviews
queries: inception; star wars; pixar; batman
resource movie/movies: title year genre rating runtime_minutes director language release_date
  search: q year? genre?
  sub cast member/cast members: name character order:int
  sub review/reviews: author rating text date
resource actor/actors: name birth_date nationality popularity:int known_for
  search: name
  sub movie/movies: title year character
resource cinema/cinemas: name address city latitude longitude screens:int
  search: city
  sub- showtime/showtimes: movie_title start_time format price
op GET /streaming Find Streaming Services: Find where a movie can be streamed in a country.
  in: title country_code
  out: title country_code | services: service url price type
op GET /upcoming List Upcoming Movies: List the movies released soon in a country.
  in: | country_code page
  out: page:int | movies: movie_id title release_date genre
param genre STRING | Film genre. | action; comedy; drama; horror | genre | in a genre
param title STRING | Film title. | Inception; The Matrix | title | by title
""")

MEDIA = parse_category("""
category: Media
weight: 0.7
brands: Media Press Story Pod Cast Broad Channel Radio Print Wire
topics: podcasts and radio; books and magazines; media archives
queries: true crime; history; economics; science fiction
resource podcast/podcasts: title publisher language genre episodes rating url
  search: q language? genre?
  sub episode/episodes: title date duration_seconds url
resource radio station/radio stations: name country_code language genre stream_url bitrate:int
  search: country_code genre?
resource book/books: title author year isbn publisher pages language rating
  search: q author? language?
  sub review/reviews: author rating text date
op GET /isbn Lookup ISBN: Look up a book by its ISBN.
  in: isbn
  out: isbn title author publisher year pages language
op GET /quotes/random Get Random Quote: Return a random quote, optionally by an author.
  in: | author
  out: quote author tags
param author STRING | Author name. | Jane Austen; Isaac Asimov | author | by an author
param isbn STRING | ISBN-10 or ISBN-13. | 9780141439518; 0553293354 | ISBN
param genre STRING | Genre. | news; comedy; history | genre | in a genre
""")

NEWS_MEDIA = parse_category("""
category: News/Media
weight: 1.4
brands: News Headline Daily Press Wire Herald Gazette Report Times Bulletin Ledger
topics: news headlines; articles from many sources; trending stories
queries: elections; climate; artificial intelligence; world cup
resource article/articles: title source author url date description language category
  search: q language? from_date? source?
  sub comment/comments: author text date
resource source/sources: name url country_code language category
  search: country_code? category?
  sub article/articles: title url date
resource topic/topics: name article_count:int trending:bool updated_at
  search: country_code
  sub article/articles: title source url date
op GET /top-headlines Get Top Headlines: Get the top headlines of a country.
  in: country_code | category page
  out: total:int | articles: title source url date
op POST /summarize Summarize Article: Summarise a news article from its URL.
  in: url | sentences
  out: url title summary word_count
param source STRING | Source id. | bbc-news; reuters; the-verge | source | from a source
param category ENUM | News category. | business; technology; sports; health; science | category | in a category
param sentences NUMBER | Number of sentences of the summary. | 3; 5 | number of sentences
""")

VIDEO_IMAGES = parse_category("""
category: Video/Images
weight: 1.0
brands: Pixel Photo Snap Frame Clip Vid Image Pic Lens Render Stock Gallery
topics: stock photos and videos; image processing; video metadata
queries: mountains; city at night; cats; ocean
resource photo/photos: title url width height photographer license tags
  search: q orientation? color?
  sub- size/sizes: label width height url
resource video/videos: title url duration_seconds width height views channel published_at
  search: q duration?
  sub comment/comments: author text likes date
resource channel/channels: name url subscribers:int video_count:int country_code
  search: q
  sub video/videos: title views published_at
op POST /resize Resize Image: Resize an image from a URL to the given width and height.
  in: image_url width height | format
  out: url width height format size_bytes
op POST /background/remove Remove Background: Remove the background of an image.
  in: image_url
  out: url width height format
op GET /thumbnail Generate Thumbnail: Generate a thumbnail of a video at a timestamp.
  in: video_url | second
  out: url width height
param orientation ENUM | Orientation. | landscape; portrait; square | orientation
param color STRING | Dominant color. | blue; green; red | color
param duration ENUM | Length of the video. | short; medium; long | duration
param image_url STRING | URL of the image. | https://images.example.com/photo-1234.jpg | image URL
param video_url STRING | URL of the video. | https://videos.example.com/clip-987.mp4 | video URL
param width NUMBER | Width in pixels. | 640; 1280 | width
param height NUMBER | Height in pixels. | 480; 720 | height
param second NUMBER | Timestamp in seconds. | 5; 30 | second
param format ENUM | Image format. | png; jpg; webp | format
""")

GAMING = parse_category("""
category: Gaming
weight: 1.0
brands: Game Play Quest Level Pixel Loot Arcade Guild Raid Boss Respawn Console
topics: video game database; game deals and stats; player profiles
queries: zelda; minecraft; elden ring; fortnite
resource game/games: title platform genre release_date rating price currency developer
  search: q platform? genre?
  sub review/reviews: author rating text date
  sub achievement/achievements: name description percent_unlocked:float
resource player profile/player profiles: username level rank wins losses country_code
  search: username platform?
  sub- match/matches: date mode result kills:int
resource deal/deals: title store price currency discount url expires_at
  search: platform? max_price?
op GET /servers/status Get Server Status: Get the status of a game's online servers.
  in: game | region
  out: game status players_online:int | regions: region status latency_ms:int
op GET /giveaways List Giveaways: List the current free game giveaways.
  in: | platform
  out: count:int | giveaways: title platform worth url end_date
param platform ENUM | Gaming platform. | pc; playstation; xbox; switch | platform | on a platform
param genre STRING | Game genre. | rpg; shooter; strategy | genre | in a genre
param game STRING | Game name. | fortnite; valorant | game
param region ENUM | Server region. | eu; na; asia | region
""")

SOCIAL = parse_category("""
category: Social
weight: 1.4
brands: Social Friend Follow Share Post Like Buzz Circle Feed Chat Tribe Vibe
topics: social media profiles and posts; hashtags and trends; follower analytics
queries: travel; fitness; photography; food
resource profile/profiles: username name bio followers following posts_count:int verified url
  search: username
  sub post/posts: text likes comments date url
  sub follower/followers: username name verified
resource post/posts: text author likes comments date url
  search: hashtag from_date?
  sub comment/comments: author text likes date
resource hashtag/hashtags: name posts_count:int trending:bool updated_at
  search: q
op GET /trends Get Trending Topics: List the trending topics of a country.
  in: country_code
  out: country_code updated_at | trends: name posts_count:int url
op GET /engagement Get Engagement Rate: Compute the engagement rate of a profile.
  in: username
  out: username engagement_rate:float average_likes:float average_comments:float
param hashtag STRING | Hashtag without the #. | travel; foodie | hashtag | with a hashtag
""")

EMAIL = parse_category("""
category: Email
weight: 0.8
brands: Mail Inbox Post Send Letter Envelope Reply Verify Box Relay
topics: email validation; transactional email; inbox data
queries: newsletter; invoice; welcome
resource mailbox/mailboxes: address name provider created_at active
  search: domain
  sub message/messages: sender subject date is_read:bool
resource message/messages: sender recipient subject date size_bytes
  search: mailbox_address from_date?
  sub attachment/attachments: filename content_type size_bytes
resource template/templates: name subject language created_at
  search: q? language?
op GET /verify Verify Email: Check whether an email address exists and can receive mail.
  in: email
  out: email valid deliverable is_disposable domain score
op POST /send Send Email: Send an email to a recipient.
  in: to_email subject body | from_email
  out: message_id status created_at
param mailbox_address STRING | Address of the mailbox. | jane.doe@example.com | mailbox address | in a mailbox
param to_email STRING | Recipient address. | jane.doe@example.com | recipient
param from_email STRING | Sender address. | noreply@example.com | sender
param subject STRING | Subject line. | Your order has shipped | subject
param body STRING | Message text. | Hello Jane, your order is on its way. | body
""")

SMS = parse_category("""
category: SMS
weight: 0.7
brands: Text SMS Msg Sender Signal Ping Notify Alert Relay Dial
topics: SMS messaging; phone number validation; OTP verification
queries: verification code; delivery notice; reminder
resource message/messages: to sender text status created_at price currency
  search: status? from_date?
resource number/numbers: phone_number country_code type carrier monthly_price:float available
  search: country_code type?
resource sender id/sender ids: name country_code status created_at
  search: country_code?
op POST /send Send SMS: Send a text message to a phone number.
  in: to text | sender
  out: message_id status to price currency
op GET /validate Validate Phone Number: Validate a phone number and return its carrier.
  in: phone_number
  out: phone_number valid country_code carrier line_type
op POST /otp Send OTP: Send a one-time passcode to a phone number.
  in: phone_number | length
  out: request_id status expires_at
param status ENUM | Delivery status. | delivered; sent; failed; queued | status | with a status
param type ENUM | Number type. | mobile; landline; toll_free | number type
param to STRING | Recipient phone number (E.164). | +14155552671 | recipient
param sender STRING | Sender id or number. | TOOLGYM; +15005550006 | sender
param text STRING | Message text. | Your verification code is 123456. | message text
param length NUMBER | Number of digits of the code. | 6; 4 | length
""")

COMMUNICATION = parse_category("""
category: Communication
weight: 1.0
brands: Call Voice Talk Chat Link Connect Meet Line Echo Signal
topics: voice and chat messaging; meeting scheduling; contact lookup
queries: standup; support; sales call
resource call/calls: from_number to_number status duration_seconds started_at price currency
  search: status? from_date?
resource channel/channels: name topic members_count created_at is_public
  search: q
  sub message/messages: author text created_at
resource meeting/meetings: title start_time duration_minutes host join_url attendees
  search: host from_date?
  sub participant/participants: name email joined_at
op POST /messages Post Message: Post a message to a chat channel.
  in: channel_id text
  out: message_id channel_id text created_at
op GET /lookup Lookup Caller: Identify the owner of a phone number.
  in: phone_number
  out: phone_number name carrier line_type country_code
param status ENUM | Call status. | completed; busy; failed; no_answer | status | with a status
param host STRING | Host's email address. | jane.doe@example.com | host | hosted by someone
param text STRING | Message text. | The deploy is done. | text
""")

CATEGORIES: tuple[Category, ...] = (
    SPORTS,
    ENTERTAINMENT,
    MUSIC,
    MOVIES,
    MEDIA,
    NEWS_MEDIA,
    VIDEO_IMAGES,
    GAMING,
    SOCIAL,
    EMAIL,
    SMS,
    COMMUNICATION,
)
"""The categories of this module."""
