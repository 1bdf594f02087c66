-- Common words leave PostgreSQL's search index (docs/storage.md, "Common words"). A GIN index holds an entry
-- for every (word, article) pair, and the words in more than a tenth of the articles are about half of them:
-- half of the index's inserts, the largest part of the server's work in a crawl, and a third of its size
-- (docs/perf.md, "Common words out of the search index"). From this migration on, longread leaves these
-- words out of an article's search vector and sets them in a bitmap instead (articles.common_words, bit N
-- for the word numbered N here), which search reads: the GIN index answers a query's other words, and a
-- query made only of common words walks articles_common_words, newest first.
--
-- The list is fixed: changing it would leave stored vectors without words the index is then asked for, so
-- a new list is a new migration that remakes every vector. These are the 647 words in more than 10 % of
-- 100,000 articles generated from the corpus's word frequencies (longread-generate's default seed; made by
-- bench/scale/common_words_list.sh), with that share, which search uses to size a query's first slice.
--
-- A row whose bitmap is NULL has a vector that holds every word: rows stored before this migration, and
-- rows whose vectors the trigger makes from the server's own parser (writers other than longread). Search
-- finds those through the index as before; `longread db compact` remakes them.
CREATE TABLE search_common_words (
  bit INTEGER PRIMARY KEY CHECK (bit >= 0),
  lexeme TEXT NOT NULL UNIQUE,
  share REAL NOT NULL CHECK (share > 0 AND share <= 1)
);

ALTER TABLE articles ADD COLUMN common_words BYTEA;

-- The walk of a query made only of common words: newest first, the bitmap read from the index itself
-- (an index-only scan), so it never reads the rows it passes over.
CREATE INDEX articles_common_words ON articles (id) INCLUDE (common_words)
  WHERE visible = 1 AND common_words IS NOT NULL;

-- The trigger makes a vector of every word (it has no list): such a row has no bitmap.
CREATE OR REPLACE FUNCTION articles_search_vector() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF tg_op = 'INSERT' AND new.search_vector IS NOT NULL THEN
    RETURN new;
  END IF;
  IF tg_op = 'UPDATE' AND new.search_vector IS DISTINCT FROM old.search_vector THEN
    IF new.phrase_filter IS NOT DISTINCT FROM old.phrase_filter THEN
      new.phrase_filter := NULL;
    END IF;
    RETURN new;
  END IF;
  IF tg_op = 'UPDATE' AND new.title IS NOT DISTINCT FROM old.title AND new.text IS NOT DISTINCT FROM old.text
  THEN
    RETURN new;
  END IF;
  new.search_vector := strip(to_tsvector('longread_search', new.title) || to_tsvector('longread_search', new.text));
  new.rank_vector := longread_rank_vector(new.title, new.text);
  new.phrase_filter := NULL;
  new.common_words := NULL;
  RETURN new;
END $$;

INSERT INTO search_common_words (bit, lexeme, share) VALUES
(0, 'the', 0.9581), (1, 'to', 0.9290), (2, 'a', 0.9194), (3, 'and', 0.9127), (4, 'of', 0.9102),
(5, 'in', 0.8829), (6, 'is', 0.8492), (7, 'i', 0.8415), (8, 'for', 0.8404), (9, 'that', 0.8396),
(10, 'it', 0.8363), (11, 'on', 0.8056), (12, 'you', 0.7979), (13, 'this', 0.7951), (14, 'with', 0.7771),
(15, 'be', 0.7195), (16, 'as', 0.7144), (17, 'we', 0.7132), (18, 'are', 0.7127), (19, 'can', 0.7064),
(20, 'but', 0.6832), (21, 's', 0.6738), (22, 'if', 0.6609), (23, 'from', 0.6594), (24, 'or', 0.6575),
(25, 'have', 0.6479), (26, 'at', 0.6472), (27, 'an', 0.6416), (28, 'not', 0.6346), (29, 'by', 0.6324),
(30, 'your', 0.6107), (31, 'https', 0.6105), (32, 'all', 0.6084), (33, 'so', 0.6077), (34, 'one', 0.6012),
(35, 'about', 0.6010), (36, 'my', 0.6003), (37, 'was', 0.5883), (38, 'will', 0.5618), (39, 'com', 0.5598),
(40, 'more', 0.5579), (41, 'there', 0.5472), (42, 'which', 0.5469), (43, 'some', 0.5466),
(44, 'like', 0.5409), (45, 'has', 0.5357), (46, 'what', 0.5331), (47, 'when', 0.5273), (48, 'new', 0.5263),
(49, 'do', 0.5243), (50, 'up', 0.5233), (51, 'they', 0.5210), (52, 't', 0.5184), (53, 'time', 0.5160),
(54, 'code', 0.5058), (55, 'use', 0.5017), (56, 'how', 0.5016), (57, 'get', 0.4985), (58, 'also', 0.4779),
(59, 'out', 0.4756), (60, 'just', 0.4725), (61, 'using', 0.4543), (62, 'other', 0.4543), (63, 'att', 0.4515),
(64, 'into', 0.4488), (65, 'then', 0.4485), (66, 'their', 0.4482), (67, 'here', 0.4417),
(68, 'data', 0.4373), (69, 'our', 0.4368), (70, 'would', 0.4354), (71, 'make', 0.4337), (72, 'www', 0.4303),
(73, 'now', 0.4300), (74, 'only', 0.4300), (75, 'go', 0.4295), (76, 'these', 0.4279), (77, 'och', 0.4263),
(78, 'them', 0.4242), (79, 'been', 0.4236), (80, 'than', 0.4182), (81, 'first', 0.4168), (82, 'no', 0.4102),
(83, 'way', 0.4060), (84, 'det', 0.4006), (85, 'me', 0.4005), (86, 'any', 0.3995), (87, 'want', 0.3948),
(88, 'apple', 0.3944), (89, 'http', 0.3944), (90, 'need', 0.3934), (91, 'because', 0.3806),
(92, 'each', 0.3796), (93, 'see', 0.3728), (94, 'work', 0.3697), (95, 'its', 0.3648), (96, 'many', 0.3585),
(97, 'those', 0.3547), (98, 'system', 0.3482), (99, 'even', 0.3479), (100, 'most', 0.3473),
(101, 'en', 0.3457), (102, 'find', 0.3450), (103, 'app', 0.3448), (104, 'c', 0.3423), (105, 'well', 0.3420),
(106, 'same', 0.3412), (107, 'something', 0.3373), (108, 'over', 0.3352), (109, 'two', 0.3345),
(110, 'should', 0.3330), (111, 'were', 0.3325), (112, 'blog', 0.3324), (113, 'things', 0.3316),
(114, 'die', 0.3289), (115, 'org', 0.3285), (116, 'could', 0.3265), (117, 'post', 0.3252),
(118, 'set', 0.3239), (119, 'thread', 0.3236), (120, 'had', 0.3232), (121, 'very', 0.3225),
(122, 'html', 0.3220), (123, 'good', 0.3210), (124, 'som', 0.3198), (125, 'much', 0.3177),
(126, 'people', 0.3147), (127, 'where', 0.3143), (128, 'run', 0.3125), (129, 'next', 0.3120),
(130, 'man', 0.3119), (131, 'may', 0.3095), (132, 'bit', 0.3081), (133, 've', 0.3061), (134, 'und', 0.3029),
(135, 'open', 0.3019), (136, 'version', 0.3010), (137, 'server', 0.2999), (138, 'file', 0.2968),
(139, 'example', 0.2957), (140, 'linux', 0.2919), (141, 'function', 0.2915), (142, 'build', 0.2912),
(143, 'list', 0.2906), (144, 'last', 0.2897), (145, 'used', 0.2897), (146, 'still', 0.2888),
(147, 'really', 0.2877), (148, 'think', 0.2854), (149, 'know', 0.2844), (150, 'read', 0.2831),
(151, 'wp', 0.2828), (152, 'us', 0.2823), (153, 'newsletter', 0.2799), (154, 'back', 0.2798),
(155, 'does', 0.2795), (156, 'google', 0.2774), (157, 'point', 0.2772), (158, 'through', 0.2756),
(159, 'few', 0.2749), (160, 'software', 0.2731), (161, 'test', 0.2730), (162, 'every', 0.2727),
(163, 'power', 0.2714), (164, 'de', 0.2691), (165, 'der', 0.2677), (166, 'den', 0.2670),
(167, 'another', 0.2660), (168, 'might', 0.2656), (169, 'since', 0.2655), (170, 'down', 0.2655),
(171, 'inte', 0.2647), (172, 'memory', 0.2638), (173, 'support', 0.2627), (174, 'source', 0.2624),
(175, 'after', 0.2620), (176, 'too', 0.2606), (177, 'take', 0.2603), (178, 'different', 0.2602),
(179, 'who', 0.2602), (180, 'm', 0.2601), (181, 'look', 0.2599), (182, 'till', 0.2595),
(183, 'going', 0.2586), (184, 'av', 0.2560), (185, 'med', 0.2557), (186, 'while', 0.2550),
(187, 'project', 0.2530), (188, 'right', 0.2526), (189, 'before', 0.2526), (190, 'page', 0.2499),
(191, 'unix', 0.2495), (192, 'case', 0.2490), (193, 'size', 0.2485), (194, 'why', 0.2482),
(195, 'problem', 0.2461), (196, 'interesting', 0.2457), (197, 'free', 0.2452), (198, 'end', 0.2452),
(199, 'help', 0.2451), (200, 'share', 0.2449), (201, 'add', 0.2446), (202, 'both', 0.2445),
(203, 're', 0.2440), (204, 'he', 0.2439), (205, 'files', 0.2433), (206, 'actually', 0.2432),
(207, 'around', 0.2423), (208, 'thing', 0.2422), (209, 'number', 0.2419), (210, 'forums', 0.2417),
(211, 'group', 0.2416), (212, 'world', 0.2396), (213, 'via', 0.2394), (214, 'year', 0.2384),
(215, 'write', 0.2377), (216, 'being', 0.2377), (217, 'd', 0.2377), (218, 'tests', 0.2369),
(219, 'om', 0.2362), (220, 'let', 0.2357), (221, 'off', 0.2350), (222, 'better', 0.2324),
(223, 'article', 0.2308), (224, 'net', 0.2307), (225, 'instead', 0.2303), (226, 'start', 0.2296),
(227, 'between', 0.2294), (228, 'cloud', 0.2282), (229, 'own', 0.2278), (230, 'user', 0.2246),
(231, 'such', 0.2245), (232, 'issue', 0.2234), (233, 'best', 0.2229), (234, 'long', 0.2229),
(235, 'years', 0.2228), (236, 'running', 0.2224), (237, 'reading', 0.2224), (238, 'sure', 0.2214),
(239, 'design', 0.2208), (240, 'without', 0.2199), (241, 'ipad', 0.2194), (242, 'users', 0.2189),
(243, 'program', 0.2187), (244, 'available', 0.2175), (245, 'web', 0.2170), (246, 'again', 0.2162),
(247, 'text', 0.2161), (248, 'github', 0.2159), (249, 'though', 0.2158), (250, 'iphone', 0.2148),
(251, 'features', 0.2147), (252, 'great', 0.2145), (253, 'part', 0.2142), (254, 'create', 0.2139),
(255, 'try', 0.2138), (256, 'change', 0.2131), (257, 'single', 0.2126), (258, 'machine', 0.2124),
(259, 'watch', 0.2122), (260, 'anything', 0.2118), (261, 'possible', 0.2107), (262, 'once', 0.2105),
(263, 'tools', 0.2090), (264, 'did', 0.2078), (265, 'send', 0.2077), (266, 'week', 0.2066),
(267, 'always', 0.2064), (268, 'pro', 0.2062), (269, 'lot', 0.2062), (270, 'day', 0.2053),
(271, 'able', 0.2045), (272, 'don', 0.2023), (273, 'per', 0.2009), (274, 'made', 0.2001),
(275, 'har', 0.1999), (276, 'his', 0.1999), (277, 'model', 0.1996), (278, 'x', 0.1990),
(279, 'view', 0.1983), (280, 'little', 0.1964), (281, 'network', 0.1938), (282, 'second', 0.1934),
(283, 'changes', 0.1932), (284, 'makes', 0.1920), (285, 'line', 0.1913), (286, 'show', 0.1906),
(287, 'done', 0.1901), (288, 'means', 0.1896), (289, 'however', 0.1889), (290, 'never', 0.1889),
(291, 'mac', 0.1882), (292, 'based', 0.1881), (293, 'type', 0.1880), (294, 'got', 0.1876),
(295, 'must', 0.1871), (296, 'state', 0.1870), (297, 'update', 0.1859), (298, 'keep', 0.1858),
(299, 'today', 0.1854), (300, 'ways', 0.1844), (301, 'review', 0.1842), (302, 'simple', 0.1840),
(303, 'works', 0.1835), (304, 'apps', 0.1834), (305, 'working', 0.1832), (306, 'real', 0.1829),
(307, 'process', 0.1826), (308, 'small', 0.1820), (309, 'probably', 0.1816), (310, 'value', 0.1810),
(311, 'easy', 0.1809), (312, 'link', 0.1809), (313, 'above', 0.1805), (314, 'library', 0.1804),
(315, 'e', 0.1799), (316, 'simply', 0.1798), (317, 'll', 0.1795), (318, 'making', 0.1790),
(319, 'already', 0.1790), (320, 'pretty', 0.1785), (321, 'security', 0.1785), (322, 'ett', 0.1784),
(323, 'ios', 0.1776), (324, 'performance', 0.1775), (325, 'access', 0.1775), (326, 'service', 0.1774),
(327, 'move', 0.1773), (328, 'less', 0.1769), (329, 'screen', 0.1767), (330, 'g', 0.1764),
(331, 'information', 0.1762), (332, 'das', 0.1761), (333, 'full', 0.1759), (334, 'until', 0.1758),
(335, 'results', 0.1754), (336, 'order', 0.1749), (337, 'venam', 0.1735), (338, 'ui', 0.1725),
(339, 'important', 0.1724), (340, 'b', 0.1724), (341, 'put', 0.1723), (342, 'doing', 0.1720),
(343, 'writing', 0.1718), (344, 'audio', 0.1711), (345, 'keyboard', 0.1710), (346, 'note', 0.1708),
(347, 'address', 0.1708), (348, 'computer', 0.1707), (349, 'old', 0.1706), (350, 'large', 0.1701),
(351, 'groups', 0.1693), (352, 'realtime', 0.1690), (353, 'high', 0.1686), (354, 'mit', 0.1685),
(355, 'current', 0.1683), (356, 'windows', 0.1680), (357, 'patreon', 0.1674), (358, 'space', 0.1669),
(359, 'developers', 0.1668), (360, 'started', 0.1668), (361, 'internet', 0.1666), (362, 'men', 0.1664),
(363, 'everything', 0.1662), (364, 'call', 0.1662), (365, 'left', 0.1660), (366, 'big', 0.1652),
(367, 'rust', 0.1645), (368, 'course', 0.1645), (369, 'level', 0.1642), (370, 'name', 0.1636),
(371, 'image', 0.1635), (372, 'times', 0.1618), (373, 'specific', 0.1610), (374, 'top', 0.1608),
(375, 'say', 0.1606), (376, 'given', 0.1605), (377, 'yet', 0.1605), (378, 'api', 0.1601),
(379, 'three', 0.1595), (380, 'found', 0.1591), (381, 'often', 0.1588), (382, 'video', 0.1585),
(383, 'book', 0.1584), (384, 'release', 0.1582), (385, 'von', 0.1582), (386, 'far', 0.1577),
(387, 'getting', 0.1571), (388, 'command', 0.1567), (389, 'past', 0.1567), (390, 'london', 0.1567),
(391, 'hard', 0.1566), (392, 'module', 0.1565), (393, 'team', 0.1565), (394, 'home', 0.1564),
(395, 'days', 0.1563), (396, 'maybe', 0.1560), (397, 'package', 0.1558), (398, 'idea', 0.1556),
(399, 'looking', 0.1555), (400, 'related', 0.1553), (401, 'check', 0.1550), (402, 'enough', 0.1544),
(403, 'kind', 0.1543), (404, 'come', 0.1543), (405, 'samples', 0.1541), (406, 'smart', 0.1536),
(407, 'storage', 0.1535), (408, 'io', 0.1528), (409, 'having', 0.1526), (410, 'versions', 0.1524),
(411, 'company', 0.1520), (412, 'kan', 0.1518), (413, 'images', 0.1508), (414, 'called', 0.1505),
(415, 'feature', 0.1500), (416, 'learn', 0.1497), (417, 'said', 0.1495), (418, 'ask', 0.1495),
(419, 'under', 0.1494), (420, 'systems', 0.1487), (421, 'language', 0.1482), (422, 'ist', 0.1482),
(423, 'standard', 0.1479), (424, 'music', 0.1477), (425, 'quite', 0.1477), (426, 'least', 0.1473),
(427, 'articles', 0.1471), (428, 'input', 0.1463), (429, 'seems', 0.1459), (430, 'compiler', 0.1456),
(431, 'written', 0.1454), (432, 'error', 0.1453), (433, 'testing', 0.1452), (434, 'search', 0.1451),
(435, 'non', 0.1450), (436, 'learning', 0.1450), (437, 'following', 0.1449), (438, 'useful', 0.1448),
(439, 'services', 0.1447), (440, 'install', 0.1443), (441, 'series', 0.1441), (442, 'game', 0.1440),
(443, 'needs', 0.1438), (444, 'phone', 0.1435), (445, 'core', 0.1417), (446, 'including', 0.1409),
(447, 'vi', 0.1407), (448, 'against', 0.1406), (449, 'fast', 0.1405), (450, 'multiple', 0.1399),
(451, 'ein', 0.1397), (452, 'product', 0.1394), (453, 'freebsd', 0.1393), (454, 'give', 0.1393),
(455, 'uses', 0.1390), (456, 'email', 0.1386), (457, 'content', 0.1379), (458, 'life', 0.1376),
(459, 'tool', 0.1374), (460, 'friends', 0.1374), (461, 'style', 0.1371), (462, 'itself', 0.1367),
(463, 'finally', 0.1367), (464, 'ever', 0.1364), (465, 'device', 0.1362), (466, 'posts', 0.1361),
(467, 'zu', 0.1356), (468, 'sort', 0.1350), (469, 'during', 0.1343), (470, 'doesn', 0.1334),
(471, 'projects', 0.1334), (472, 'discuss', 0.1333), (473, 'original', 0.1329), (474, 'turn', 0.1329),
(475, 'news', 0.1326), (476, 'live', 0.1326), (477, 'place', 0.1325), (478, 'store', 0.1324),
(479, 'n', 0.1322), (480, 'array', 0.1320), (481, 'bytes', 0.1308), (482, 'default', 0.1306),
(483, 'development', 0.1305), (484, 'am', 0.1304), (485, 'step', 0.1301), (486, 'functions', 0.1293),
(487, 'workflow', 0.1291), (488, 'similar', 0.1287), (489, 'vector', 0.1284), (490, 'etc', 0.1283),
(491, 'fun', 0.1283), (492, 'omnifocus', 0.1280), (493, 'added', 0.1279), (494, 'talk', 0.1278),
(495, 'later', 0.1272), (496, 'issues', 0.1272), (497, 'built', 0.1270), (498, 'cache', 0.1269),
(499, 'battery', 0.1269), (500, 'fact', 0.1262), (501, 'meter', 0.1261), (502, 'either', 0.1260),
(503, 'love', 0.1260), (504, 'together', 0.1258), (505, 'along', 0.1258), (506, 'building', 0.1257),
(507, 'problems', 0.1256), (508, 'event', 0.1256), (509, 'programming', 0.1255), (510, 'reason', 0.1251),
(511, 'hardware', 0.1251), (512, 'questions', 0.1248), (513, 'site', 0.1243), (514, 'kommer', 0.1241),
(515, 'others', 0.1236), (516, 'nice', 0.1233), (517, 'thought', 0.1232), (518, 'control', 0.1229),
(519, 'away', 0.1228), (520, 'history', 0.1228), (521, 'side', 0.1221), (522, 'download', 0.1221),
(523, 'key', 0.1218), (524, 'options', 0.1217), (525, 'future', 0.1217), (526, 'implementation', 0.1216),
(527, 'directory', 0.1215), (528, 'contact', 0.1212), (529, 'sample', 0.1210), (530, 'whole', 0.1208),
(531, 'f', 0.1206), (532, 'cost', 0.1202), (533, 'local', 0.1198), (534, 'unit', 0.1193),
(535, 'paper', 0.1193), (536, 'business', 0.1189), (537, 'needed', 0.1188), (538, 'almost', 0.1187),
(539, 'consider', 0.1184), (540, 'looks', 0.1182), (541, 'topics', 0.1178), (542, 'details', 0.1178),
(543, 'log', 0.1172), (544, 'kernel', 0.1171), (545, 'auf', 0.1168), (546, 'tasks', 0.1167),
(547, 'eine', 0.1167), (548, 'whether', 0.1166), (549, 'tell', 0.1165), (550, 'website', 0.1165),
(551, 'script', 0.1159), (552, 'goes', 0.1157), (553, 'entire', 0.1153), (554, 'form', 0.1152),
(555, 'contribute', 0.1152), (556, 'previous', 0.1150), (557, 'nothing', 0.1150), (558, 'pages', 0.1150),
(559, 'training', 0.1150), (560, 'gets', 0.1150), (561, 'bad', 0.1149), (562, 'technology', 0.1149),
(563, 'common', 0.1147), (564, 'tree', 0.1143), (565, 'easily', 0.1142), (566, 'plan', 0.1141),
(567, 'ago', 0.1141), (568, 'brought', 0.1140), (569, 'food', 0.1139), (570, 'auch', 0.1139),
(571, 'copy', 0.1135), (572, 'nicht', 0.1135), (573, 'everyone', 0.1134), (574, 'choose', 0.1130),
(575, 'art', 0.1130), (576, 'eller', 0.1127), (577, 'trying', 0.1123), (578, 'across', 0.1120),
(579, 'likely', 0.1118), (580, 'general', 0.1118), (581, 'devices', 0.1118), (582, 'quickly', 0.1114),
(583, 'solution', 0.1113), (584, 'account', 0.1111), (585, 'understand', 0.1106), (586, 'task', 0.1098),
(587, 'else', 0.1095), (588, 'cpu', 0.1095), (589, 'ones', 0.1092), (590, 'complete', 0.1091),
(591, 'remember', 0.1091), (592, 'include', 0.1091), (593, 'dependencies', 0.1089), (594, 'events', 0.1085),
(595, 'play', 0.1083), (596, 'story', 0.1083), (597, 'main', 0.1083), (598, 'bug', 0.1082),
(599, 'programs', 0.1081), (600, 'links', 0.1080), (601, 'approach', 0.1078), (602, 'client', 0.1077),
(603, 'os', 0.1077), (604, 'comes', 0.1075), (605, 'person', 0.1073), (606, 'due', 0.1070),
(607, 'public', 0.1070), (608, 'output', 0.1068), (609, 'entries', 0.1066), (610, 'ant', 0.1066),
(611, 'r', 0.1063), (612, 'seen', 0.1063), (613, 'provide', 0.1060), (614, 'optimal', 0.1058),
(615, 'visit', 0.1058), (616, 'social', 0.1054), (617, 'especially', 0.1053), (618, 'someone', 0.1052),
(619, 'reference', 0.1051), (620, 'message', 0.1048), (621, 'archive', 0.1047), (622, 'sync', 0.1045),
(623, 'ip', 0.1041), (624, 'clear', 0.1039), (625, 'handle', 0.1038), (626, 'font', 0.1036),
(627, 'hash', 0.1036), (628, 'isn', 0.1036), (629, 'wrong', 0.1033), (630, 'drive', 0.1030),
(631, 'setup', 0.1030), (632, 'cases', 0.1029), (633, 'ska', 0.1023), (634, 'sometimes', 0.1023),
(635, 'block', 0.1022), (636, 'chance', 0.1022), (637, 'reader', 0.1020), (638, 'research', 0.1013),
(639, 'result', 0.1012), (640, 'inside', 0.1011), (641, 'price', 0.1009), (642, 'experience', 0.1009),
(643, 'featured', 0.1008), (644, 'products', 0.1008), (645, 'feel', 0.1006), (646, 'di', 0.1002);
