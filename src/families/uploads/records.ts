// A file uploaded to a project (Upload with FileUploader): its secret and name make its path;
// the content is a blob in the project's object store.
export interface Upload {
  id: number;
  projectId: number;
  /** 32 hex digits. */
  secret: string;
  filename: string;
  /** The blob holding the content. */
  oid: string;
  size: number;
  uploadedById: number;
  createdAt: number;
}
