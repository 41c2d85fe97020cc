// Tags as GitLab renders them (lib/api/entities/tag.rb, tag_release.rb, tag_signature.rb,
// x509_signature.rb, x509_certificate.rb, x509_issuer.rb).
import type { TagRef, X509Signature } from '../repositories/index.js';
import { commitEntity, gitDate, type CommitRef } from '../commits/index.js';
import type { Ident } from '../../git/objects.js';

export interface TagFacts {
  name: string;
  tag: TagRef;
  commit: CommitRef;
  /** The tagger of an annotated tag; null for a lightweight one. */
  tagger: Ident | null;
  /** The release made from the tag; undefined when the caller may not read releases. */
  release?: { tagName: string; description: string } | null;
  protected: boolean;
}

export function tagEntity(projectWebUrl: string, t: TagFacts) {
  return {
    name: t.name,
    message: t.tag.message,
    target: t.tag.target,
    commit: commitEntity(projectWebUrl, t.commit),
    ...(t.release === undefined ? {} : { release: t.release && { tag_name: t.release.tagName, description: t.release.description } }),
    protected: t.protected,
    created_at: t.tagger ? gitDate(t.tagger) : null,
  };
}

export function tagSignatureEntity(s: X509Signature) {
  const c = s.certificate;
  return {
    signature_type: 'X509',
    verification_status: s.verificationStatus,
    x509_certificate: {
      id: c.id,
      subject: c.subject,
      subject_key_identifier: c.subjectKeyIdentifier,
      email: c.email,
      serial_number: c.serialNumber,
      certificate_status: c.certificateStatus,
      x509_issuer: {
        id: c.issuer.id,
        subject: c.issuer.subject,
        subject_key_identifier: c.issuer.subjectKeyIdentifier,
        crl_url: c.issuer.crlUrl,
      },
    },
  };
}
