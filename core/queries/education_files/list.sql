-- A campaign's education files in upload order (unique index on campaign_id, name).
select name, size_bytes, extracted_text from campaign_education_files where campaign_id = $1 order by id
