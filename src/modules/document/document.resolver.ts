import { Arg, Ctx as GqlCtx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { Ctx } from '../../kernel/context';
import type { DocumentEntityType } from '../../kernel/documents';
import { parsePage } from '../../shared/pagination';
import { templateFilePath, type TemplateJson } from './document.json';
import { PdfEntityTypeEnum, PdfTemplateFieldInput, PdfTemplatePageType, PdfTemplateType } from './document.types';
import { deleteTemplate, getTemplate, listTemplates, updateTemplate } from './template.service';

/** The GraphQL form adds the file's download URL. */
function shape(ctx: Ctx, t: TemplateJson): PdfTemplateType {
  return { ...t, fileUrl: `${ctx.deps.config.publicUrl}${templateFilePath(t.companyID, t.entityType, t.entityID)}` };
}

/** Template metadata; files go up and down over REST (multipart upload, PDF download). */
@Resolver()
export class DocumentResolver {
  @Query(() => PdfTemplatePageType, { nullable: true, description: "A page of the company's PDF templates of one entity type (pdf.read)." })
  async pdfTemplates(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: 'The company.' }) companyID: string,
    @Arg('entityType', () => PdfEntityTypeEnum, { description: 'gift_card or membership.' }) entityType: DocumentEntityType,
    @Arg('limit', () => Int, { nullable: true, description: 'Page size, 1 to 100 (default 100).' }) limit?: number,
    @Arg('offset', () => Int, { nullable: true, description: 'Templates to skip (default 0).' }) offset?: number,
  ): Promise<PdfTemplatePageType> {
    const page = parsePage({ limit, offset });
    const { templates, total } = await listTemplates(ctx, companyID, entityType, page);
    return { total, limit: page.limit, offset: page.offset, pdfTemplates: templates.map((t) => shape(ctx, t)) };
  }

  @Query(() => PdfTemplateType, { nullable: true, description: 'The PDF template of one gift card or subscription (pdf.read).' })
  async pdfTemplate(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: 'The company.' }) companyID: string,
    @Arg('entityType', () => PdfEntityTypeEnum, { description: 'gift_card or membership.' }) entityType: DocumentEntityType,
    @Arg('entityID', () => ID, { description: 'The gift card or subscription.' }) entityID: string,
  ): Promise<PdfTemplateType> {
    return shape(ctx, await getTemplate(ctx, companyID, entityType, entityID));
  }

  @Mutation(() => PdfTemplateType, {
    description: "Replaces a template's fields (pdf.write); the file is replaced over REST (PATCH, multipart).",
  })
  async updatePdfTemplateFields(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: 'The company.' }) companyID: string,
    @Arg('entityType', () => PdfEntityTypeEnum, { description: 'gift_card or membership.' }) entityType: DocumentEntityType,
    @Arg('entityID', () => ID, { description: 'The gift card or subscription.' }) entityID: string,
    @Arg('fields', () => [PdfTemplateFieldInput], { description: 'Every field of the template, in drawing order.' })
    fields: PdfTemplateFieldInput[],
  ): Promise<PdfTemplateType> {
    // Input objects become plain values, checked exactly as the REST `fields` part is.
    const plain = fields.map((f) => Object.fromEntries(Object.entries(f).filter(([, v]) => v !== null && v !== undefined)));
    return shape(ctx, await updateTemplate(ctx, companyID, entityType, entityID, async () => ({ fields: plain })));
  }

  @Mutation(() => Boolean, { description: 'Deletes a template and its file (pdf.write); the entity then prints the default document.' })
  async deletePdfTemplate(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: 'The company.' }) companyID: string,
    @Arg('entityType', () => PdfEntityTypeEnum, { description: 'gift_card or membership.' }) entityType: DocumentEntityType,
    @Arg('entityID', () => ID, { description: 'The gift card or subscription.' }) entityID: string,
  ): Promise<boolean> {
    await deleteTemplate(ctx, companyID, entityType, entityID);
    return true;
  }
}
