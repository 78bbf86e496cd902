"""Grammars of the technical categories: data, tools, storage, search, monitoring, devices, security.

Each grammar is in the text form of :func:`~.spec.parse_category`.
"""

from __future__ import annotations

from toolgym.simulators.tool_library.domains.spec import Category, parse_category

DATA = parse_category("""
category: Data
weight: 3.0
brands: Data Info Fact Stat Record Index Census Open Dataset Query Source Metric
topics: open datasets; country and demographic statistics; reference data lookups
queries: population; unemployment; airports; universities
resource dataset/datasets: title publisher category format row_count updated_at url license
  search: q category? format?
  sub- column/columns: name type description
  sub- row/rows: key value updated_at
resource country/countries: name country_code capital region population currency language area_km2:float
  search: region? q?
  sub city/cities: name population latitude longitude
resource indicator/indicators: name unit source frequency latest_value:float updated_at
  search: q country_code?
  sub- observation/observations: date value country_code
resource holiday/holidays: name date country_code type local_name
  search: country_code year
op GET /convert Convert Units: Convert a value from one unit to another.
  in: value from_unit to_unit
  out: value from_unit to_unit result
op GET /timezone/now Get Current Time: Get the current local time of a time zone.
  in: timezone
  out: timezone local_time utc_offset is_dst:bool
op GET /random/user Generate Random User: Generate a random user profile for testing.
  in: | country_code gender
  out: name email phone city country_code username birth_date
param category STRING | Dataset category. | health; economy; education; transport | category | in a category
param format ENUM | File format. | csv; json; xlsx | format
param region ENUM | World region. | Europe; Asia; Africa; Americas; Oceania | region | in a region
param value NUMBER | The value to convert. | 100; 3.5 | value
param from_unit STRING | Unit to convert from. | km; lb; celsius | source unit
param to_unit STRING | Unit to convert to. | mi; kg; fahrenheit | target unit
param gender ENUM | Gender of the generated user. | female; male | gender
param year NUMBER | Year. | 2024; 2023 | year | in a year
""")

TOOLS = parse_category("""
category: Tools
weight: 2.5
brands: Tool Util Kit Convert Gen Quick Handy Smart Easy Swift Dev Helper
topics: developer utilities; converters and generators; URL and QR code tools
queries: qr code; pdf; json; uuid
resource short link/short links: short_url long_url clicks created_at expires_at
  search: domain? from_date?
  sub- click/clicks: timestamp country_code referrer device
resource qr code/qr codes: data image_url size:int format created_at
  search: from_date?
resource conversion job/conversion jobs: input_format output_format status file_url size_bytes created_at
  search: status? output_format?
op POST /shorten Shorten URL: Shorten a long URL.
  in: url | alias
  out: short_url long_url created_at
op GET /qr Generate QR Code: Generate a QR code image for a text or URL.
  in: data | size format
  out: image_url size:int format
op GET /uuid Generate UUID: Generate one or more random UUIDs.
  in: | count
  out: count:int | uuids: uuid
op GET /screenshot Take Screenshot: Capture a screenshot of a web page.
  in: url | width full_page
  out: url image_url width height
param alias STRING | Custom alias of the short link. | spring-sale | alias
param data STRING | Text or URL to encode. | https://example.com; hello world | data
param size NUMBER | Image size in pixels. | 300; 500 | size
param format ENUM | Output format. | png; svg; pdf | format
param count NUMBER | How many to generate. | 1; 5 | count
param status ENUM | Job status. | queued; processing; done; failed | status | with a status
param output_format ENUM | Target format. | pdf; docx; png; mp3 | output format
param width NUMBER | Viewport width in pixels. | 1280; 1920 | width
param full_page BOOLEAN | Capture the full page. | true; false | full page
""")

DATABASE = parse_category("""
category: Database
weight: 1.0
brands: DB Table Record Query Schema Row Index Store Base Vault Entry
topics: hosted databases; record lookups; structured reference data
queries: car models; dog breeds; chemical elements; zip codes
resource record/records: name category created_at updated_at value source
  search: q category?
  sub- revision/revisions: version:int changed_at author
resource collection/collections: name record_count:int created_at updated_at description
  search: q?
  sub record/records: name created_at
resource dog breed/dog breeds: name origin size life_span group temperament weight_kg
  search: q size?
resource car model/car models: make model year body_type engine fuel_type
  search: make year?
op POST /query Run Query: Run a filter query over a collection.
  in: collection_id filter | limit
  out: collection_id count:int | records: record_id name value
op GET /stats Get Collection Stats: Get the size and record count of a collection.
  in: collection_id
  out: collection_id record_count:int size_bytes updated_at
param category STRING | Record category. | animals; vehicles; science | category | in a category
param size ENUM | Breed size. | small; medium; large | size
param make STRING | Car make. | Toyota; BMW; Ford | make | by make
param filter STRING | Filter expression. | year > 2020; name = 'Rex' | filter
""")

STORAGE = parse_category("""
category: Storage
weight: 0.6
brands: Store Drive Vault Box Cloud Bucket File Archive Locker Stash
topics: cloud file storage; file sharing; backups
queries: report; invoice; photos
resource file/files: name size_bytes content_type created_at updated_at url
  search: folder_id? q?
  sub version/versions: size_bytes created_at author
resource folder/folders: name file_count created_at updated_at path
  search: parent_id? q?
  sub file/files: name size_bytes updated_at
resource bucket/buckets: name region size_bytes file_count created_at is_public
  search: region?
op POST /upload Upload File: Upload a file from a URL into a folder.
  in: source_url | folder_id name
  out: file_id name size_bytes url created_at
op POST /share Create Share Link: Create a public link to a file.
  in: file_id | expires_in_days
  out: file_id share_url expires_at
param folder_id STRING | Folder id. | fld_1a2b3c; root | folder | in a folder
param parent_id STRING | Parent folder id. | root | parent folder
param region ENUM | Storage region. | us-east; eu-west; ap-south | region | in a region
param source_url STRING | URL to fetch the file from. | https://files.example.com/report.pdf | source URL
param name STRING | File name. | report.pdf | file name
param expires_in_days NUMBER | Days until the link expires. | 7; 30 | expiry
""")

SEARCH = parse_category("""
category: Search
weight: 1.0
brands: Search Find Seek Query Look Discover Explore Hunt Scan Crawl Index
topics: web search; image and news search; autocomplete and SEO data
queries: best laptops 2024; how to bake bread; python tutorial; lisbon restaurants
resource web result/web results: title url snippet position:int domain date
  search: q country_code? language? page?
resource image result/image results: title url image_url width height source
  search: q safe_search?
resource keyword/keywords: keyword search_volume:int cpc:float competition trend
  search: q country_code?
  sub- related keyword/related keywords: keyword search_volume:int
op GET /autocomplete Autocomplete Query: Suggest completions for a partial search query.
  in: q | language
  out: q | suggestions: text score
op GET /serp/rank Check Ranking: Check the search ranking of a domain for a keyword.
  in: keyword domain | country_code
  out: keyword domain position:int url date
param safe_search BOOLEAN | Filter explicit results. | true | safe search
""")

MONITORING = parse_category("""
category: Monitoring
weight: 0.6
brands: Watch Uptime Pulse Monitor Ping Alert Health Status Sentry Beacon
topics: uptime monitoring; server metrics; incident alerts
queries: api; checkout page; database
resource monitor/monitors: name url check_interval:int status uptime_percent response_time_ms created_at
  search: status?
  sub- check/checks: timestamp status_code response_time_ms location
resource incident/incidents: title severity status started_at resolved_at monitor_name
  search: status severity?
  sub- update/updates: status message created_at
resource server/servers: hostname ip region cpu_percent memory_percent load_percent online
  search: region?
  sub- metric/metrics: timestamp cpu_percent memory_percent
op GET /check Check Website Status: Check whether a website is up right now.
  in: url
  out: url is_up:bool status_code response_time_ms checked_at
op GET /ssl Check SSL Certificate: Check a domain's SSL certificate and its expiry.
  in: domain
  out: domain valid issuer expires_at days_left:int
param status ENUM | Status. | up; down; paused; open; resolved | status | with a status
param severity ENUM | Incident severity. | low; medium; high; critical | severity
param region ENUM | Server region. | us-east; eu-west; ap-south | region | in a region
""")

DEVICES = parse_category("""
category: Devices
weight: 0.6
brands: Device Gadget Smart Home Sensor Thing Node Hub Chip Tech
topics: smart home devices; phone specifications; IoT sensors
queries: iphone; galaxy; pixel; thermostat
resource phone model/phone models: brand model release_date os screen_size:float battery_mah:int price currency
  search: brand year?
  sub- spec/specs: group name value
resource smart device/smart devices: name type room status battery_level online
  search: room? type?
  sub- reading/readings: timestamp value unit
resource sensor/sensors: name type location latitude longitude battery_level active
  search: type? city?
  sub- reading/readings: timestamp value unit
op POST /command Send Device Command: Send a command to a smart device.
  in: smart_device_id command | value
  out: smart_device_id command status executed_at
op GET /user-agent Parse User Agent: Parse a user-agent string into device, browser and OS.
  in: user_agent
  out: device_type browser browser_version os os_version
param brand STRING | Phone brand. | Apple; Samsung; Google | brand | by brand
param room STRING | Room name. | living room; kitchen | room | in a room
param type ENUM | Device or sensor type. | light; thermostat; lock; camera; temperature | type
param command ENUM | Command to run. | turn_on; turn_off; set_temperature; lock | command
param value STRING | Argument of the command. | 21 | value
param user_agent STRING | User-agent string. | Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) | user agent
""")

CYBERSECURITY = parse_category("""
category: Cybersecurity
weight: 0.6
brands: Secure Shield Guard Threat Scan Sentinel Defend Fort Armor Cipher
topics: threat intelligence; vulnerability data; breach and malware checks
queries: log4j; openssl; wordpress; ransomware
resource vulnerability/vulnerabilities: cve_id title severity cvss_score:float published_at vendor product
  search: q severity? vendor?
  sub reference/references: url source
resource breach/breaches: name domain date records_count:int data_types verified
  search: domain? q?
resource threat report/threat reports: title category severity published_at source url
  search: category? from_date?
op GET /ip/reputation Check IP Reputation: Check whether an IP address is known for abuse.
  in: ip
  out: ip abuse_score:int country_code isp is_tor:bool last_reported_at
op GET /url/scan Scan URL: Scan a URL for malware and phishing.
  in: url
  out: url is_safe threat_type scanned_at
op GET /email/breaches Check Email Breaches: List the known breaches an email address appears in.
  in: email
  out: email count:int | breaches: name date domain
param severity ENUM | Severity. | low; medium; high; critical | severity
param vendor STRING | Vendor name. | apache; microsoft; cisco | vendor | by vendor
param category ENUM | Threat category. | malware; phishing; ransomware; botnet | category | in a category
""")

CRYPTOGRAPHY = parse_category("""
category: Cryptography
weight: 0.5
brands: Crypt Hash Cipher Key Secure Vault Sign Token Enigma Block
topics: hashing and encryption; key generation; signatures and tokens
queries: sha256; rsa; jwt; aes
resource key pair/key pairs: algorithm key_size:int public_key fingerprint created_at
  search: algorithm?
resource certificate/certificates: common_name issuer valid_from valid_to fingerprint algorithm
  search: domain
resource algorithm/algorithms: name type key_size:int secure:bool description
  search: type?
op POST /hash Hash Text: Hash a text with a chosen algorithm.
  in: text | algorithm
  out: algorithm hash encoding
op POST /encrypt Encrypt Text: Encrypt a text with a passphrase.
  in: text passphrase | cipher
  out: cipher ciphertext iv
op POST /jwt/decode Decode JWT: Decode a JSON web token and show its claims.
  in: token
  out: algorithm issuer subject expires_at valid
op GET /password Generate Password: Generate a strong random password.
  in: | length symbols
  out: password length:int entropy_bits:float
param algorithm ENUM | Hash or key algorithm. | sha256; sha1; md5; sha512 | algorithm
param type ENUM | Algorithm family. | hash; symmetric; asymmetric | type
param passphrase STRING | Secret passphrase. | correct horse battery staple | passphrase
param cipher ENUM | Cipher. | aes-256-gcm; chacha20 | cipher
param token STRING | The JWT. | eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.sig | token
param length NUMBER | Password length. | 16; 24 | length
param symbols BOOLEAN | Include symbols. | true | symbols
""")

CATEGORIES: tuple[Category, ...] = (
    DATA,
    TOOLS,
    DATABASE,
    STORAGE,
    SEARCH,
    MONITORING,
    DEVICES,
    CYBERSECURITY,
    CRYPTOGRAPHY,
)
"""The categories of this module."""
