"""Collection themes: the categories whose tools a multi-tool task may combine.

A collection is a theme's name (with a suffix when a theme gives several collections) and 3 to
12 tools of at least two of its categories.
"""

from __future__ import annotations

from toolgym.simulators.tool_library.domains.spec import Theme

_THEMES = """
Travel Planning: Travel; Weather; Mapping; Finance
Business Trips: Travel; Transportation; Business; Payments
Weekend Getaways: Travel; Events; Food; Weather
Commuting: Transportation; Mapping; Weather
Home Cooking: Food; Health and Fitness; eCommerce
Healthy Living: Health and Fitness; Food; Medical
Patient Care: Medical; Health and Fitness; Communication
Personal Finance: Finance; Financial; Payments
Investing: Finance; Financial; News/Media; Data
Crypto Watch: Financial; Cryptography; News/Media
Online Store: eCommerce; Payments; Logistics; Advertising
Price Hunting: Commerce; eCommerce; Reward
Shipping and Delivery: Logistics; Transportation; Location; Email
Marketing Campaigns: Advertising; Social; Email; Search
Social Media Management: Social; Video/Images; Text Analysis
Content Creation: Video/Images; Artificial Intelligence/Machine Learning; Text Analysis; Media
News Monitoring: News/Media; Text Analysis; Translation
Global Communication: Translation; Communication; SMS; Email
Customer Support: Communication; Business Software; Email; SMS
Sales Prospecting: Business; Email; Search; Business Software
Hiring: Jobs; Business; Education
Learning Languages: Education; Translation; Media
Study Helper: Education; Science; Artificial Intelligence/Machine Learning
Movie Night: Movies; Entertainment; Food
Music Discovery: Music; Events; Social
Game Night: Gaming; Entertainment; Video/Images
Sports Fans: Sports; News/Media; Events; Video/Images
Live Events: Events; Music; Sports; Travel
Smart Home: Devices; Energy; Monitoring
Green Energy: Energy; Weather; Science
Site Reliability: Monitoring; Cybersecurity; Tools; Communication
Security Audit: Cybersecurity; Cryptography; Monitoring; Tools
Developer Toolbox: Tools; Database; Storage; Cryptography
Data Analytics: Data; Database; Artificial Intelligence/Machine Learning; Storage
Research Assistant: Search; Data; Science; Text Analysis
Image Intelligence: Visual Recognition; Artificial Intelligence/Machine Learning; Video/Images
Document Processing: Visual Recognition; Text Analysis; Storage; Translation
Local Discovery: Location; Mapping; Food; Events
Rewards and Loyalty: Reward; Payments; eCommerce; Commerce
Fun and Trivia: Entertainment; Other; Gaming
Everyday Utilities: Other; Tools; Weather; Data
Media Library: Media; Movies; Music; Storage
"""

THEMES: tuple[Theme, ...] = tuple(
    Theme(name.strip(), tuple(c.strip() for c in categories.split(";")))
    for name, _, categories in (line.partition(":") for line in _THEMES.strip().splitlines())
)
"""The collection themes, each with 2 to 4 categories."""

SUFFIXES = (
    "",
    "Essentials",
    "Toolkit",
    "Suite",
    "Pack",
    "Bundle",
    "Starter Kit",
    "Pro",
    "Plus",
    "Hub",
    "Studio",
    "Workbench",
)
"""Suffixes that tell apart the collections of one theme ("Travel Planning Toolkit")."""
