-- Icebreakers (issue 82): a business's first line, written from the facts its website gave, with every fact's page
-- and exact sentence. No row: the site gave no facts (or was never read). One statement writes a row whole, so a
-- read that fails half-way keeps nothing of it.
create table icebreakers (
    business_id bigint primary key references businesses (id) on delete cascade,
    -- Every fact the site gave, as JSON: [{kind, claim, url, quote}].
    facts text not null,
    -- The facts the line states (its sources), as JSON.
    sources text not null,
    text text not null,
    language text not null,
    -- offline (the templates), model (the configured model's, checked against the facts), edited (the user's text)
    -- or dropped (the user removed it: the prospect gets the template's fallback). The crawl rewrites only the first
    -- two; the user's own stays until they ask for a new line.
    origin text not null check (origin in ('offline', 'model', 'edited', 'dropped')),
    written_at bigint not null
);
