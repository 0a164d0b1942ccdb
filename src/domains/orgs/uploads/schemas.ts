import { Type } from 'typebox';
import { EmptyRequest, Field, Own, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { IMAGE_PURPOSES } from './service.js';

/** The multipart form every image upload takes: image files under any part name, and the operation's own fields. */
export const ImageForm = (fields: Record<string, string> = {}, files = 'one .jpg or .png image of at most 5 MB; any part name') =>
  Type.Object(
    {
      file: Type.Optional(Type.Array(Type.String({ contentMediaType: 'image/jpeg' }), { description: files })),
      ...Object.fromEntries(Object.entries(fields).map(([name, description]) => [name, Type.Optional(Type.String({ description }))])),
    },
    { description: 'multipart/form-data' },
  );

export const UploadedImage = Type.Object({
  uuid: Field(Ruuid()),
  orgUuid: Field(Ruuid()),
  purpose: Field(StringEnum(IMAGE_PURPOSES)),
  targetUuid: Field(Ruuid()),
  fileName: Field(Type.String()),
  contentType: Field(Type.String()),
  byteSize: Field(Type.Integer()),
  width: Field(Type.Integer()),
  height: Field(Type.Integer()),
  uri: Field(Type.String({ description: 'the image on the media host' })),
  createdAtMillis: Field(Type.Integer()),
});
/** Why an upload answers fields of its own: the catalogue's answer is a bare server Response object, with none. */
const UPLOADED = "the catalogue's upload answer has no fields: the stored image, which the organization's or location's record then names";
export const UploadImageResponse = ResponseOf({
  uuid: Field(Own(Ruuid(), UPLOADED)),
  uri: Field(Own(Type.String(), UPLOADED)),
  image: Field(Own(UploadedImage, UPLOADED)),
});

const FileResult = Type.Object({
  fileName: Type.String(),
  success: Type.Boolean(),
  message: Field(Type.String()),
  uuid: Field(Ruuid()),
  targetUuid: Field(Ruuid({ description: 'the user the photo is of' })),
});
export const UploadImagesResponse = ResponseOf({ fileUploadResults: Field(Own(Type.Array(FileResult), UPLOADED)) });

export const DeleteLogoRequest = EmptyRequest;
export const DeleteLogoResponse = ResponseOf({});
