import type { MessagePart } from '../language-model-client.js';
import type { NormalizedRequest } from '../normalize-options.js';
import { extractDocumentText } from './extract-document-text.js';

/**
 * Reads the call's PDF and CSV `files` (one after the other, so memory stays bounded) and puts
 * their text in front of the user's message. A request without files is returned as it is.
 */
export async function attachDocuments(request: NormalizedRequest): Promise<NormalizedRequest> {
  if (request.documents.length === 0) return request;
  const texts: string[] = [];
  for (const document of request.documents) texts.push(await extractDocumentText(document));
  const block = texts.join('\n\n');
  const last = request.messages.at(-1);
  if (last === undefined || last.role !== 'user') return request;
  const content: string | MessagePart[] = typeof last.content === 'string' ? `${block}\n\n${last.content}` : [{ type: 'text', text: block }, ...last.content];
  return { ...request, messages: [...request.messages.slice(0, -1), { role: 'user', content }] };
}
