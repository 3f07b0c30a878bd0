-- Stores an uploaded file's extracted text; uploading the same name again replaces it.
insert into campaign_education_files (campaign_id, name, size_bytes, extracted_text, created_at)
values ($1, $2, $3, $4, $5)
on conflict (campaign_id, name) do update set size_bytes = excluded.size_bytes,
    extracted_text = excluded.extracted_text, created_at = excluded.created_at
