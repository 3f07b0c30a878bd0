-- A follow-up's position in its template's sequence is unique; with the check on sequence_number (1 to 4) this caps
-- a sequence at four in the database, whatever requests race. Rows written before (concurrent creates could number
-- two alike or add a fifth) keep each template's first four in order, renumbered 1 to 4.
delete from follow_up_templates where id in (
    select id from (
        select id, row_number() over (partition by main_template_id order by sequence_number, id) as position
        from follow_up_templates
    ) ranked where position > 4
);
update follow_up_templates set sequence_number = (
    select ranked.position from (
        select id, row_number() over (partition by main_template_id order by sequence_number, id) as position
        from follow_up_templates
    ) ranked where ranked.id = follow_up_templates.id
);
drop index follow_up_templates_main;
-- A template's sequence in order, one follow-up per position.
create unique index follow_up_templates_position on follow_up_templates (main_template_id, sequence_number);
