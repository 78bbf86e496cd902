"""Grammars of the place-bound categories: travel, maps, transport, logistics, weather, energy, events.

Each grammar is in the text form of :func:`~.spec.parse_category`.
"""

from __future__ import annotations

from toolgym.simulators.tool_library.domains.spec import Category, parse_category

TRAVEL = parse_category("""
category: Travel
weight: 1.6
brands: Stay Trip Fare Jet Roam Voyage Wander Nomad Tour Journey Getaway Odyssey
topics: hotel and flight search; trip planning; accommodation and travel deals
queries: beach resort; boutique hotel; city break; ski chalet
resource hotel/hotels: name city country_code address stars price currency rating review_count
  search: city checkin_date? checkout_date? adults? stars? max_price? currency?
  sub review/reviews: author rating title text date language
  sub room/rooms: room_type price currency max_guests available refundable
resource flight/flights: airline flight_number origin destination departure_time arrival_time price currency stops duration_minutes
  search: origin destination departure_date adults? cabin_class? max_stops?
  sub fare/fares: cabin_class price currency refundable baggage
resource destination/destinations: name country country_code description best_season rating latitude longitude
  search: q country_code?
  sub attraction/attractions: name category rating latitude longitude
resource tour/tours: title city duration_hours price currency rating language
  search: city date? language? max_price?
  sub review/reviews: author rating text date
op GET /airports/lookup Get Airport By Code: Look up an airport by its IATA code.
  in: iata_code
  out: iata_code name city country_code latitude longitude timezone
op GET /visa/check Check Visa Requirements: Check whether travellers of one country need a visa to visit another.
  in: passport_country destination_country
  out: passport_country destination_country visa_required:bool max_stay_days:int notes
op GET /airports/search Search Airports: Search for airports by name or city.
  in: query | limit
  out: count | airports: iata_code name city country_code
param checkin_date DATE | Check-in date (YYYY-MM-DD). | 2024-07-01; 2024-08-10 | check-in date
param checkout_date DATE | Check-out date (YYYY-MM-DD). | 2024-07-05; 2024-08-14 | check-out date
param departure_date DATE | Departure date (YYYY-MM-DD). | 2024-08-12 | departure date | on a date
param adults NUMBER | Number of adult travellers. | 2; 1 | number of adults
param stars NUMBER | Minimum hotel star rating (1-5). | 4; 3 | star rating
param origin STRING | IATA code of the departure airport. | LIS; JFK; LHR | origin | between two airports
param destination STRING | IATA code of the arrival airport. | CDG; NRT; BCN
param cabin_class ENUM | Cabin class. | economy; premium_economy; business; first | cabin class
param max_stops NUMBER | Maximum number of stops. | 1; 0 | number of stops
param iata_code STRING | Three-letter IATA airport code. | LIS; JFK; SIN | IATA code
param query STRING | Airport name or city. | lisbon; new york; heathrow | query | matching a query
param passport_country STRING | ISO code of the passport's country. | US; IN
param destination_country STRING | ISO code of the country to visit. | JP; FR
""")

LOCATION = parse_category("""
category: Location
brands: Geo Locus Place Where Spot Pin Area Zip Region Terra
topics: geocoding and place data; IP geolocation; postal code lookup
queries: coffee; museum; pharmacy; main street
resource place/places: name category address city country_code latitude longitude rating is_open phone
  search: query city? category? radius? lat? lon?
  sub review/reviews: author rating text date
resource postal code/postal codes: postal_code city state country_code latitude longitude timezone
  search: country_code city?
resource region/regions: name country_code region_type population latitude longitude
  search: country_code region_type?
  sub city/cities: name population latitude longitude
op GET /geocode Geocode Address: Convert a street address into coordinates.
  in: address | country_code
  out: address latitude longitude city postal_code country_code confidence
op GET /reverse Reverse Geocode: Find the address nearest to a pair of coordinates.
  in: lat lon | language
  out: address city postal_code country_code latitude longitude
op GET /ip/locate Locate IP Address: Locate an IP address to a city and country.
  in: ip
  out: ip city region country country_code latitude longitude timezone isp
param region_type ENUM | Kind of region. | state; province; county; district | region type
param category STRING | Place category. | restaurant; cafe; museum; hotel | category | in a category
""")

MAPPING = parse_category("""
category: Mapping
brands: Map Route Tile Carto Path Nav Way Grid Atlas Compass
topics: maps and routing; directions and distance matrices; map tiles and points of interest
queries: gas station; parking; train station; park
resource route/routes: origin destination distance_km duration_minutes mode toll_cost:float summary
  search: origin_address destination_address mode? avoid_tolls?
  sub- step/steps: instruction distance_km duration_minutes maneuver
resource poi/pois: name category address latitude longitude distance_km rating
  search: lat lon category? radius?
resource map tile/map tiles: zoom:int x:int y:int style url format
  search: zoom style?
op GET /distance Calculate Distance: Calculate the distance between two points.
  in: lat lon to_lat to_lon | units
  out: distance_km distance_miles:float bearing:float
op GET /staticmap Get Static Map: Render a static map image centred on a point.
  in: lat lon | zoom width height style
  out: url width height format
op GET /timezone Get Time Zone: Return the time zone of a pair of coordinates.
  in: lat lon
  out: timezone utc_offset local_time
param origin_address STRING | Start address or place name. | Rossio, Lisbon; Times Square, New York | origin | between two addresses
param destination_address STRING | End address or place name. | Belem Tower, Lisbon; Central Park, New York | destination
param mode ENUM | Travel mode. | driving; walking; cycling; transit | travel mode
param avoid_tolls BOOLEAN | Avoid toll roads. | false; true | toll avoidance
param zoom NUMBER | Zoom level (0-20). | 12; 14
param style ENUM | Map style. | streets; satellite; outdoors; dark
param to_lat NUMBER | Latitude of the second point. | 41.1579
param to_lon NUMBER | Longitude of the second point. | -8.6291
param width NUMBER | Image width in pixels. | 600; 800
param height NUMBER | Image height in pixels. | 400; 600
param category STRING | Point-of-interest category. | restaurant; fuel; parking | category | in a category
""")

TRANSPORTATION = parse_category("""
category: Transportation
brands: Transit Ride Metro Rail Bus Commute Drive Motor Wheel Fleet
topics: public transit schedules; vehicle data; ride and train information
queries: central station; airport express; line 1
resource station/stations: name city country_code latitude longitude lines wheelchair_accessible:bool
  search: city q?
  sub- departure/departures: line destination departure_time platform delay_minutes:int
resource vehicle/vehicles: make model year fuel_type price currency engine transmission
  search: make year? fuel_type?
  sub recall/recalls: component summary date severity
resource train/trains: train_number operator origin destination departure_time arrival_time status delay_minutes:int
  search: origin destination date?
  sub- stop/stops: station arrival_time departure_time platform
op GET /vin/decode Decode VIN: Decode a vehicle identification number.
  in: vin
  out: vin make model year body_type engine country
op GET /fuel/prices Get Fuel Prices: Get the average fuel prices in a country.
  in: country_code | fuel_type
  out: country_code currency | prices: fuel_type price date
param make STRING | Vehicle manufacturer. | Toyota; Ford; Tesla | manufacturer | by manufacturer
param fuel_type ENUM | Fuel type. | gasoline; diesel; electric; hybrid | fuel type
param origin STRING | Departure station name. | Lisboa Santa Apolonia; Paris Gare de Lyon | origin | between two stations
param destination STRING | Arrival station name. | Porto Campanha; Lyon Part-Dieu
param vin STRING | 17-character vehicle identification number. | 1HGCM82633A004352 | VIN
""")

LOGISTICS = parse_category("""
category: Logistics
brands: Ship Parcel Cargo Freight Track Haul Dispatch Crate Dock Courier
topics: parcel tracking; shipping rates; freight and warehouse data
queries: express; pallet; cold chain
resource shipment/shipments: tracking_number carrier status origin destination estimated_delivery weight_kg last_update
  search: tracking_number carrier?
  sub- event/events: status location description timestamp
resource carrier/carriers: name country_code services phone url rating
  search: country_code q?
  sub service/services: name delivery_days:int price currency
resource warehouse/warehouses: name city country_code capacity latitude longitude is_open
  search: city country_code?
  sub slot/slots: date start_time end_time available
op GET /rates Calculate Shipping Rate: Estimate the cost of shipping a parcel between two countries.
  in: from_country to_country weight_kg | carrier
  out: currency | rates: carrier service price delivery_days:int
op POST /address/validate Validate Address: Validate and normalise a postal address.
  in: address | country_code
  out: valid address postal_code city country_code deliverable
param tracking_number STRING | The carrier's tracking number. | 1Z999AA10123456784; LX123456789PT | tracking number | by tracking number
param carrier STRING | Carrier code. | ups; dhl; fedex; usps
param from_country STRING | ISO code of the origin country. | US; DE
param to_country STRING | ISO code of the destination country. | FR; CA
param weight_kg NUMBER | Parcel weight in kilograms. | 2.5; 10 | weight
""")

WEATHER = parse_category("""
category: Weather
weight: 1.2
brands: Sky Cloud Storm Sun Climate Breeze Rain Cast Forecast Aero
topics: weather forecasts; current conditions; air quality and climate data
queries: storm; heat wave; snow
resource forecast/forecasts: city date temperature min_temperature:float max_temperature:float humidity wind_speed description precipitation_probability:float
  search: city days? units?
  sub- hour/hours: time temperature precipitation_probability:float wind_speed
resource weather station/weather stations: name city country_code latitude longitude elevation active
  search: lat lon radius?
  sub- observation/observations: timestamp temperature humidity pressure:float
resource alert/alerts: event severity headline description start_time end_time region
  search: country_code severity?
op GET /current Get Current Weather: Get the current weather in a city.
  in: city | units lang
  out: city country_code temperature feels_like humidity wind_speed description timestamp
op GET /air-quality Get Air Quality: Get the air quality index at a pair of coordinates.
  in: lat lon
  out: aqi:int pm25:float pm10:float o3:float category timestamp
op GET /history Get Historical Weather: Retrieve the weather of a past day in a city.
  in: city date | units
  out: city date min_temperature:float max_temperature:float precipitation_mm:float description
param days NUMBER | Number of forecast days (1-14). | 3; 7 | number of days
param severity ENUM | Alert severity. | minor; moderate; severe; extreme
""")

ENERGY = parse_category("""
category: Energy
weight: 0.6
brands: Volt Watt Grid Solar Power Charge Joule Amp Fuel Ohm
topics: electricity prices; EV charging stations; solar and grid data
queries: fast charger; solar farm; wind
resource charging station/charging stations: name address city country_code latitude longitude connector_type power_kw:float available
  search: city connector_type? min_power?
  sub connector/connectors: connector_type power_kw:float status
resource power plant/power plants: name country_code fuel_type capacity_mw:float latitude longitude year
  search: country_code fuel_type?
resource tariff/tariffs: provider country_code unit_price currency plan_type valid_from
  search: country_code provider?
op GET /prices/electricity Get Electricity Price: Get the wholesale electricity price for a country and day.
  in: country_code date
  out: country_code date currency | hours: hour:int price
op GET /solar/estimate Estimate Solar Output: Estimate the yearly output of a solar installation.
  in: lat lon capacity_kw | tilt
  out: annual_kwh:float monthly_average_kwh:float capacity_kw:float
op GET /carbon-intensity Get Carbon Intensity: Get the carbon intensity of a country's electricity grid.
  in: country_code | date
  out: country_code carbon_intensity:float unit date
param connector_type ENUM | Plug type. | CCS; CHAdeMO; Type2; Tesla | connector type
param min_power NUMBER | Minimum power in kW. | 50; 22 | minimum power
param fuel_type ENUM | Energy source. | solar; wind; hydro; nuclear; gas; coal | energy source
param provider STRING | Energy provider name. | EDP; Octopus Energy
param capacity_kw NUMBER | Installed capacity in kW. | 5; 10 | capacity
param tilt NUMBER | Panel tilt in degrees. | 30; 35
""")

EVENTS = parse_category("""
category: Events
weight: 0.8
brands: Event Ticket Gig Fest Venue Stage Gather Meetup Show Pass
topics: event listings; concert and conference tickets; venue information
queries: jazz festival; tech conference; comedy night; food fair
resource event/events: name date city venue category price currency tickets_available url
  search: city start_date? end_date? category?
  sub ticket/tickets: section price currency available
  sub performer/performers: name genre url
resource venue/venues: name address city country_code capacity latitude longitude
  search: city q?
  sub event/events: name date category
resource conference/conferences: name start_date end_date city topic url attendees
  search: topic year?
  sub speaker/speakers: name company title
op GET /holidays Get Public Holidays: List the public holidays of a country in a year.
  in: country_code year
  out: country_code year | holidays: date name local_name
op GET /availability Check Ticket Availability: Check how many tickets are left for an event.
  in: event_id
  out: event_id tickets_available sold_out:bool min_price currency
param category ENUM | Event category. | music; sports; arts; business; comedy; family | category | in a category
param topic STRING | Conference topic. | artificial intelligence; web development | topic | on a topic
param start_date DATE | Earliest event date (YYYY-MM-DD). | 2024-06-15; 2024-07-01 | start date
""")

CATEGORIES: tuple[Category, ...] = (
    TRAVEL,
    LOCATION,
    MAPPING,
    TRANSPORTATION,
    LOGISTICS,
    WEATHER,
    ENERGY,
    EVENTS,
)
"""The categories of this module."""
