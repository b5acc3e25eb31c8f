/** The optional date snapshot OpenAI appends to a model id (`gpt-5-2025-08-07`), as a regex source to build patterns with. */
export const OPENAI_ID_DATE = '(?:-\\d{4}-\\d{2}-\\d{2})?';
