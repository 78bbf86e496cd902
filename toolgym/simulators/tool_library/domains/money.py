"""Grammars of the money and business categories: markets, payments, shops, ads, companies, jobs.

Each grammar is in the text form of :func:`~.spec.parse_category`.
"""

from __future__ import annotations

from toolgym.simulators.tool_library.domains.spec import Category, parse_category

FINANCE = parse_category("""
category: Finance
weight: 2.0
brands: Stock Market Ticker Quote Trade Equity Bull Fin Capital Wall Alpha Invest
topics: stock market data; real-time quotes and exchange rates; company financials
queries: apple; electric vehicles; semiconductor; bank
resource stock/stocks: symbol name exchange price currency change change_percent market_cap volume:int
  search: q exchange? sector?
  sub- price/prices: date open high low close volume:int
  sub news item/news items: title source url date sentiment_score
resource fund/funds: symbol name fund_type expense_ratio:float price currency yield_percent
  search: q fund_type?
  sub holding/holdings: symbol name percentage
resource company/companies: name symbol sector industry country employees market_cap url
  search: q country? sector?
  sub- earnings report/earnings reports: date revenue eps:float currency
op GET /convert Convert Currency: Convert an amount from one currency to another.
  in: from to amount | date
  out: from to amount rate result date
op GET /quote Get Stock Quote: Get the latest quote of a stock by its symbol.
  in: symbol
  out: symbol price change change_percent volume:int high low open close timestamp
op GET /rates Get Exchange Rates: List the exchange rates of a base currency.
  in: base_currency | date
  out: base_currency date | rates: currency rate
op GET /history Get Price History: Retrieve the daily prices of a symbol over a period.
  in: symbol from_date to_date
  out: symbol currency | prices: date open high low close
param exchange ENUM | Stock exchange. | NASDAQ; NYSE; LSE; TSE | exchange | on an exchange
param sector STRING | Industry sector. | Technology; Healthcare; Energy | sector | in a sector
param fund_type ENUM | Kind of fund. | etf; mutual_fund; index | fund type
param country STRING | Country of the headquarters. | United States; Germany | country | in a country
""")

FINANCIAL = parse_category("""
category: Financial
weight: 1.2
brands: Ledger Credit Loan Bank Coin Money Tax Cash Fiscal Asset Yield Rate
topics: banking and credit data; loan and tax calculations; financial validation
queries: savings; mortgage; credit union
resource bank/banks: name country_code swift_code city url active
  search: country_code q?
  sub branch/branches: name address city phone is_open
resource loan offer/loan offers: lender interest_rate amount currency term_months:int monthly_payment:float
  search: amount country_code? term_months?
resource crypto asset/crypto assets: symbol name price currency market_cap volume_24h change_percent rank
  search: q? currency?
  sub- price/prices: date price market_cap
op GET /iban/validate Validate IBAN: Validate an IBAN and return the bank it belongs to.
  in: iban
  out: iban valid bank_name country_code swift_code
op GET /loan/calculate Calculate Loan Payment: Calculate the monthly payment of a loan.
  in: amount interest_rate term_months
  out: monthly_payment:float total_interest:float total_payment:float
op GET /vat Get VAT Rate: Get the standard VAT rate of a country.
  in: country_code
  out: country_code tax_rate reduced_rate:float currency
param swift_code STRING | SWIFT/BIC code of the bank. | DEUTDEFF; BOFAUS3N | SWIFT code
param iban STRING | International bank account number. | DE89370400440532013000; GB29NWBK60161331926819 | IBAN
param interest_rate NUMBER | Yearly interest rate in percent. | 4.5; 6.9 | interest rate
param term_months NUMBER | Loan term in months. | 36; 60; 360 | term
param q STRING | Name or symbol of the asset. | bitcoin; ethereum; solana | query | matching a query
""")

PAYMENTS = parse_category("""
category: Payments
weight: 0.8
brands: Pay Checkout Wallet Invoice Charge Card Settle Remit Tender Billing
topics: online payments; invoicing; card and wallet processing
queries: subscription; refund; invoice
resource payment/payments: amount currency status method customer_email created_at description
  search: status? from_date? to_date? customer_email?
  sub refund/refunds: amount currency status created_at
resource invoice/invoices: number customer_email amount currency status due_date created_at
  search: status customer_email?
  sub- line item/line items: description quantity unit_price amount
resource customer/customers: name email phone country_code created_at balance
  search: email? q?
  sub payment method/payment methods: card_brand last4 exp_month:int exp_year:int
op POST /payments Create Payment: Create a payment for an amount in a currency.
  in: amount currency | customer_email description
  out: payment_id status amount currency created_at
op GET /cards/validate Validate Card Number: Validate a card number and detect its brand.
  in: card_number
  out: valid card_brand card_type issuer country_code
op GET /bin Lookup BIN: Look up the issuer of a card from its first six digits.
  in: bin
  out: bin card_brand card_type issuer country_code
param status ENUM | Payment status. | succeeded; pending; failed; refunded | status | with a status
param customer_email STRING | The customer's email address. | jane.doe@example.com | customer email | by customer email
param description STRING | Free text attached to the payment. | Order 1042 | description
param card_number STRING | Card number without spaces. | 4242424242424242; 5555555555554444 | card number
param bin STRING | First six digits of a card. | 424242; 555555 | BIN
""")

COMMERCE = parse_category("""
category: Commerce
weight: 0.8
brands: Trade Merchant Deal Retail Bazaar Vendor Barter Market Price Store
topics: product price comparison; barcode and catalogue data; merchant listings
queries: headphones; coffee maker; running shoes; laptop
resource product/products: title brand price currency upc rating review_count in_stock
  search: q brand? min_price? max_price?
  sub offer/offers: merchant price currency url in_stock
resource merchant/merchants: name url country_code rating review_count
  search: q country_code?
  sub review/reviews: author rating text date
resource deal/deals: title merchant price currency discount url expires_at
  search: category? min_discount?
op GET /barcode Lookup Barcode: Look up a product by its UPC or EAN barcode.
  in: barcode
  out: barcode title brand category image_url
op GET /price-history Get Price History: Retrieve the price history of a product.
  in: product_id | from_date
  out: product_id currency | prices: date price merchant
param brand STRING | Brand name. | Sony; Apple; Nike | brand | by brand
param barcode STRING | UPC or EAN code. | 012345678905; 4006381333931 | barcode
param min_discount NUMBER | Minimum discount in percent. | 20; 30 | minimum discount
param category STRING | Deal category. | electronics; home; fashion | category | in a category
""")

ECOMMERCE = parse_category("""
category: eCommerce
weight: 1.5
brands: Shop Cart Buy Basket Store Order Sale Mall Outlet Aisle Checkout
topics: online store catalogues; product search and reviews; order tracking
queries: wireless earbuds; yoga mat; gaming chair; phone case
resource product/products: title brand price currency rating review_count in_stock category url
  search: q category? min_price? max_price? sort?
  sub review/reviews: author rating title text date verified
  sub variant/variants: color size price in_stock
resource store/stores: name url country_code rating product_count:int
  search: q country_code?
  sub product/products: title price currency
resource order/orders: status total_price currency created_at items_count:int shipping_status
  search: status? from_date?
  sub- item/items: product_id title quantity unit_price
resource category/categories: name parent product_count:int url
  search: parent?
op GET /shipping/estimate Estimate Delivery: Estimate the delivery date of a product to a postal code.
  in: product_id postal_code
  out: product_id postal_code estimated_delivery shipping_cost:float currency
op GET /coupons Get Coupon Codes: List the active coupon codes of a store.
  in: store_id
  out: store_id | coupons: code description discount expires_at
param category STRING | Product category. | electronics; home-kitchen; sports; beauty | category | in a category
param sort ENUM | Sort order. | relevance; price_asc; price_desc; rating; newest | sort order
param status ENUM | Order status. | pending; shipped; delivered; cancelled | status | with a status
param postal_code STRING | Destination postal code. | 10001; 94103; 1100-148 | postal code
param parent STRING | Parent category name. | electronics; home | parent category
""")

REWARD = parse_category("""
category: Reward
weight: 0.5
brands: Reward Loyal Perk Bonus Point Gift Prize Earn Redeem Star
topics: loyalty programs; gift cards; points and rewards
queries: coffee; airline miles; gift card
resource loyalty program/loyalty programs: name brand points_per_dollar:float tiers country_code url
  search: q country_code?
  sub tier/tiers: name min_points:int benefits
resource gift card/gift cards: brand reward_value currency country_code available
  search: country_code brand?
resource member/members: name email points_balance tier created_at
  search: email
  sub- transaction/transactions: date points:int description
op POST /points/redeem Redeem Points: Redeem a member's points for a reward.
  in: member_id points | reward_code
  out: member_id points_redeemed:int points_balance status
op GET /points/convert Convert Points: Convert loyalty points into a cash value.
  in: loyalty_program_id points
  out: loyalty_program_id points:int value currency
param brand STRING | Brand name. | Starbucks; Amazon; Nike | brand | by brand
param points NUMBER | Number of points. | 500; 1000; 2500 | points
param reward_code STRING | Code of the reward. | FREE-COFFEE; GIFT-10 | reward code
""")

ADVERTISING = parse_category("""
category: Advertising
weight: 0.6
brands: Ad Promo Reach Click Banner Buzz Audience Target Impress Boost
topics: ad campaign analytics; audience targeting; ad placement data
queries: summer sale; brand awareness; app install
resource campaign/campaigns: name status budget currency start_date end_date impressions clicks ctr
  search: status? start_date?
  sub ad/ads: headline format impressions clicks ctr
  sub- daily stat/daily stats: date impressions clicks spend conversions
resource advertiser/advertisers: name domain industry country_code active
  search: q industry?
  sub campaign/campaigns: name status budget
resource audience/audiences: name size:int age_range interests country_code
  search: country_code interest?
op GET /keywords/cpc Estimate Keyword CPC: Estimate the cost per click of a keyword.
  in: keyword | country_code
  out: keyword cpc:float competition search_volume:int currency
op GET /ads/preview Preview Ad: Render a preview of an ad for a placement.
  in: ad_id | placement
  out: ad_id placement preview_url width height
param status ENUM | Campaign status. | active; paused; ended | status | with a status
param industry STRING | Industry name. | retail; travel; finance | industry | in an industry
param interest STRING | Audience interest. | fitness; gaming; travel | interest | by interest
param placement ENUM | Where the ad is shown. | feed; story; banner; search | placement
param keyword STRING | Search keyword. | running shoes; cheap flights | keyword | matching a keyword
""")

BUSINESS = parse_category("""
category: Business
weight: 1.5
brands: Biz Corp Venture Company Firm Enterprise Trade Office Lead Register
topics: company registry data; business leads; firmographics
queries: acme; logistics company; software startup
resource company/companies: name domain industry country_code city employees founded_year:int revenue url
  search: q country_code? industry?
  sub employee/employees: name title email linkedin_url
  sub- filing/filings: date form_type url
resource lead/leads: name title company email phone country_code score
  search: company? title?
resource business listing/business listings: name category address city phone rating review_count url
  search: city category?
  sub review/reviews: author rating text date
op GET /vat/validate Validate VAT Number: Validate a European VAT number and return the company behind it.
  in: vat_number
  out: vat_number valid name address country_code
op GET /domain/company Find Company By Domain: Find the company behind a website domain.
  in: domain
  out: domain name industry employees country_code founded_year:int
param industry STRING | Industry name. | software; retail; healthcare | industry | in an industry
param company STRING | Company name. | Acme Corp; Globex | company | at a company
param title STRING | Job title. | CTO; Marketing Manager | job title
param category STRING | Business category. | plumber; dentist; bakery | category | in a category
param vat_number STRING | VAT number with its country prefix. | DE129273398; PT501964843 | VAT number
""")

BUSINESS_SOFTWARE = parse_category("""
category: Business Software
weight: 1.0
brands: Work Task Team Desk CRM Flow Project Ops Sprint Board
topics: CRM and project management; team workflows; helpdesk tickets
queries: onboarding; bug; quarterly plan
resource project/projects: name status owner start_date due_date progress members_count
  search: status? owner?
  sub task/tasks: title status assignee due_date priority
resource contact/contacts: name email phone company title created_at
  search: q company?
  sub note/notes: text author created_at
resource ticket/tickets: subject status priority requester_email created_at updated_at
  search: status priority?
  sub comment/comments: author text created_at
op POST /tasks Create Task: Create a task in a project.
  in: project_id title | assignee due_date
  out: task_id project_id title status created_at
op GET /reports/time Get Time Report: Summarise the hours logged on a project.
  in: project_id | from_date to_date
  out: project_id total_hours:float | entries: user hours:float date
param status ENUM | Status. | open; in_progress; done; closed | status | with a status
param owner STRING | Owner's username. | jdoe; asmith | owner
param company STRING | Company name. | Acme Corp; Globex | company | at a company
param priority ENUM | Priority. | low; normal; high; urgent | priority
param title STRING | Title of the task. | Prepare launch checklist | title
param assignee STRING | Username of the assignee. | jdoe | assignee
param due_date DATE | Due date (YYYY-MM-DD). | 2024-07-15 | due date
""")

JOBS = parse_category("""
category: Jobs
weight: 0.8
brands: Job Career Hire Talent Work Recruit Resume Skill Gig Staff
topics: job search; salary data; recruiting
queries: python developer; nurse; data analyst; marketing manager
resource job/jobs: title company city country_code salary currency employment_type is_remote date url
  search: query city? employment_type? is_remote?
  sub- requirement/requirements: skill level years:int
resource employer/employers: name industry city rating review_count open_positions url
  search: q city?
  sub review/reviews: title rating text date
resource candidate/candidates: name title city skills years_experience:int email
  search: skill city?
op GET /salary/estimate Estimate Salary: Estimate the salary range of a job title in a city.
  in: job_title city
  out: job_title city currency min_salary:float median_salary:float max_salary:float
op POST /resume/parse Parse Resume: Extract the contact details and skills from a resume.
  in: resume_text
  out: name email phone | skills: name years:int
param employment_type ENUM | Employment type. | full_time; part_time; contract; internship | employment type
param is_remote BOOLEAN | Only remote jobs. | true; false | remote work
param skill STRING | A skill. | python; sql; figma | skill | with a skill
param job_title STRING | Job title. | Data Analyst; Software Engineer | job title
param resume_text STRING | Plain text of a resume. | Jane Doe, jane.doe@example.com, 5 years of Python and SQL. | resume text
param query STRING | Job title or keywords. | python developer; nurse | query | matching a query
""")

CATEGORIES: tuple[Category, ...] = (
    FINANCE,
    FINANCIAL,
    PAYMENTS,
    COMMERCE,
    ECOMMERCE,
    REWARD,
    ADVERTISING,
    BUSINESS,
    BUSINESS_SOFTWARE,
    JOBS,
)
"""The categories of this module."""
