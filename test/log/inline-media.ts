/** A body with an inline payload in each dialect's place for one: data URLs, `data`, `file_data`, `b64_json`. */
export const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** Each payload written as `payload` (the bytes, or what a redactor leaves of them). */
export function inlineMediaBody(payload: string) {
  return {
    messages: [
      { role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${payload}` } }] },
      { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: payload } }] },
      { role: 'user', content: [{ type: 'input_audio', input_audio: { data: payload, format: 'wav' } }] },
      { role: 'user', content: [{ type: 'input_file', file_data: `data:application/pdf;base64,${payload}`, filename: 'a.pdf' }] },
    ],
    data: [{ b64_json: payload }],
  };
}
