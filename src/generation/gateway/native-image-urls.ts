import { imageUrlRefusal, isHttpUrl, type ImageUrlPolicy } from './image-url-policy.js';

type Json = Readonly<Record<string, unknown>>;

/** The http(s) URL an image block or part names, in any of the three wires' shapes; undefined for base64 images and everything else. */
function imageUrlOf(node: Json): string | undefined {
  // Messages: {type: 'image', source: {type: 'url', url}}
  const source = node['source'] as Json | undefined;
  if (node['type'] === 'image' && source?.['type'] === 'url') return String(source['url'] ?? '');
  // Responses: {type: 'input_image', image_url: 'https://…'}
  if (node['type'] === 'input_image' && typeof node['image_url'] === 'string' && isHttpUrl(node['image_url'])) return node['image_url'];
  // Chat Completions: {type: 'image_url', image_url: {url: 'https://…'}}
  const chat = node['image_url'] as Json | undefined;
  if (node['type'] === 'image_url' && typeof chat?.['url'] === 'string' && isHttpUrl(chat['url'])) return chat['url'];
  return undefined;
}

/**
 * Applies GATEWAY_ALLOW_IMAGE_URLS to a body passed through natively, as the translated path does:
 * an image named by URL (which the provider would fetch) is refused unless the operator allows it.
 * Walks messages/input items and their nested content (tool results included).
 *
 * @throws UnsupportedChatRequest (400 `invalid_request_error`) naming the first such image.
 */
export function refuseImageUrls(body: Json, policy: ImageUrlPolicy): void {
  if (policy.allowImageUrls) return;
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) walk(item, `${path}[${index}]`);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const node = value as Json;
    if (imageUrlOf(node) !== undefined) {
      const field = node['type'] === 'image' ? 'source.url' : node['type'] === 'input_image' ? 'image_url' : 'image_url.url';
      throw imageUrlRefusal('send the image as base64 data', `${path}.${field}`);
    }
    if (Array.isArray(node['content'])) walk(node['content'], `${path}.content`);
  };
  for (const field of ['messages', 'input']) if (Array.isArray(body[field])) walk(body[field], field);
}
