// Entities::WikiPageBasic, WikiPage and WikiAttachment (lib/api/entities/wiki_page*.rb,
// wiki_attachment.rb), and the HTML `render_html` puts in `content`.
import { uploadMarkdown } from '../uploads/index.js';
import type { WikiFormat, WikiPage } from './records.js';
import { slugOf, titleOf } from './rules.js';
import type { PageContent } from './front-matter.js';
import type { Attachment } from './service.js';

export const wikiPageBasic = (page: WikiPage) => ({ format: page.format, slug: slugOf(page), title: titleOf(page), wiki_page_meta_id: page.metaId });

export const wikiPageEntity = (page: WikiPage, body: PageContent, html?: string) => ({
  ...wikiPageBasic(page),
  content: html ?? body.content,
  encoding: 'UTF-8',
  front_matter: { ...body.frontMatter },
});

export function wikiAttachmentEntity(a: Attachment) {
  return { file_name: a.fileName, file_path: a.filePath, branch: a.branch, link: { url: a.filePath, markdown: uploadMarkdown(a.fileName, a.filePath).markdown } };
}

let markdown: Promise<(text: string) => string> | undefined;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&${({ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' })[c]};`);

/**
 * A page as HTML: markdown as GitLab's Banzai pipeline renders it (./markdown.ts, loaded the first
 * time a request asks); the other markups become escaped paragraphs.
 */
export async function renderPage(format: WikiFormat, content: string): Promise<string> {
  if (format === 'markdown') {
    markdown ??= import('./markdown.js').then(({ markdownRenderer }) => markdownRenderer());
    return (await markdown)(content);
  }
  return content
    .split(/\r?\n\s*\r?\n/)
    .filter((p) => p.trim() !== '')
    .map((p) => `<p>${escapeHtml(p.trim())}</p>`)
    .join('\n');
}
