CREATE TEXT SEARCH TEMPLATE tmpl (LEXIZE = dsimple_lexize);
