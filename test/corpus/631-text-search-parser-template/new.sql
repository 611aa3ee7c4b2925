-- PostgreSQL's own text search functions made into a template and a parser of the user's (as
-- PostgreSQL's regression SQL does), a configuration on the parser, comments: managed (named as
-- not managed before 2026-11-30). The template gains an INIT function: made again. (A dictionary
-- on it Citus would refuse, which this corpus must load on too: test/unit/server-code.test.ts.)
CREATE TEXT SEARCH TEMPLATE tmpl (LEXIZE = dsimple_lexize, INIT = dsimple_init);
COMMENT ON TEXT SEARCH TEMPLATE tmpl IS 'simple, by another name';
CREATE TEXT SEARCH PARSER prs (START = prsd_start, GETTOKEN = prsd_nexttoken, END = prsd_end, LEXTYPES = prsd_lextype, HEADLINE = prsd_headline);
COMMENT ON TEXT SEARCH PARSER prs IS 'default, by another name';
CREATE TEXT SEARCH CONFIGURATION cfg (PARSER = prs);
ALTER TEXT SEARCH CONFIGURATION cfg ADD MAPPING FOR word WITH simple;
